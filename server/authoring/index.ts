// The face of server/authoring: defineDeepAgent and the types of an agent's definition (README,
// "Add an agent"). Code outside the room imports these from here; the room's own files (the
// models list, offline phrases, durations, names) are imported by the few that need them.
export * from './define';
export type {
  ApprovalPolicy,
  ApprovalSchemas,
  ApproverMatch,
  Approvers,
  EscalationOptions,
  PolicyFunction,
  ToolApprovalOptions,
  ToolApprovalSpec,
} from './tool-approval';
export { isSessionCommand } from './session-command';
export type { ApprovalCommand, InputCommand, QueueCommand, RetryCommand, SessionCommand, SteerCommand, StopCommand } from './session-command';
export type { McpHttpServer, McpServerSpec, McpStdioServer } from './mcp-servers';
