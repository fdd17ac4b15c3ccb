// The client store's face: useAgent's core (agent-store.ts) and what its callers and tests
// name. The store's parts (the interrupt batch, the commands, the follower, the tool loop)
// stay behind it.
export { AgentStore, type AgentStoreOptions, type PendingRef } from './agent-store';
export type { AgentError } from './agent-error';
export { agentView, type AgentState, type AgentView, type AgentViewStatus, type PendingApproval, type PendingInput, type ThreadActivity } from './agent-view';
export { findToolCall, type FrontendTool } from './frontend-tool-loop';
export {
  asksForInput,
  grantScopes,
  interruptDetails,
  isDecided,
  responsePart,
  timeGrantFits,
  waitsOnOthers,
  type DecisionKind,
  type InterruptResolution,
  type ResolveOptions,
} from './interrupt-resolution';
export type { EventSourceLike } from './session-feed';
export type { AgentSnapshot, AgentStatus, InterruptDecision, PendingInterrupt } from './snapshot';
export { storeAddress, type ThreadAddress } from './thread-address';
export { ThreadHttpAgent } from './thread-http-agent';
