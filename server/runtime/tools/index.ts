// The tools room's face: an agent's tool set and what a tool may call while it runs.
export { DELEGATION_TOOL } from './builtins';
export { agentContract, handlerContext, runWithHandlerContext, undoIdempotencyKey } from './handler-context';
export type { AgentContract } from './handler-context';
export type { HandlerContext, ToolApproval } from './handler-context';
export { requestInput } from './request-input';
export type { InputAnswer } from './request-input';
export { scheduleTimer } from './schedule-timer';
export { ToolError } from './tool-error';
export { runInLanes, toolLaneOf } from './tool-lanes';
export { toolTimeoutMs } from './tool-limits';
export { loadMcpTools, mcpServerOf } from './mcp-tools';
export { MCP_IDEMPOTENCY_META_KEY } from './mcp-call';
export { agentTools, checkClientTools, executeTool, modelTools, toolKind, validateToolInput } from './tool-set';
export type { ClientTool, ToolKind } from './tool-set';
