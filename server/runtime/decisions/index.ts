// The decisions room's face: approval policies, interrupts and the decisions that answer them.
export { inputJsonSchema } from './approval-policy';
export { buildInputInterrupt, buildInterrupt, expiryDecision, isExpired, isYesOrNoApproval } from './interrupt-record';
export { planDecisions } from './plan-decisions';
export { readDecision } from './read-decision';
export type { DecisionInput, DecisionRequest, InterruptResponse } from './read-decision';
export { denialResult, gateToolCall } from './tool-gate';
export type { ToolGate } from './tool-gate';
export { isBrowserOwner, mayDecide, matchesApprovers, toldWhoDecides, voterIdentity } from './who-may-decide';
export { votesCast } from './votes';
