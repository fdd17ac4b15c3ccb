// The decisions room's face: approval policies, interrupts and the decisions that answer them.
export { inputJsonSchema } from './approval-policy';
export { dueReminders, expiryEvents, nextDeadline } from './expiry';
export { grantHolds } from './grants';
export { inboxPage, inboxParts } from './inbox-page';
export type { InboxPage, InboxPosition } from './inbox-page';
export { buildInputInterrupt, buildInterrupt, isExpired, isYesOrNoApproval } from './interrupt-record';
export { approvalContextOf } from './approval-context';
export { decisionEvents, planDecisions } from './plan-decisions';
export type { PlannedDecision } from './plan-decisions';
export { readDecision } from './read-decision';
export type { DecisionInput, DecisionRequest, InterruptResponse } from './read-decision';
export { denialResult, gateToolCall } from './tool-gate';
export type { ToolGate } from './tool-gate';
export { isBrowserOwner, linkActor, linkMayDecide, mayDecide, seesOthersApprovals, toldWhoDecides, voterIdentity } from './who-may-decide';
export { ANY_READER, shownDecision, shownVote, voteReaderOf, votesCast } from './votes';
export type { VoteReader } from './votes';
