// The session room's face: the fold, the view cache, ids, ownership, titles, leases, limits, inputs.
export { clientStatePatch, statePatch } from './editable-state';
export { conversationOf, emptyView, foldEvents, pendingInterrupts, reduce, reduceAll, toolCallIdsOf } from './reduce';
export type { CompactionNotice, Conversation, GrantState, InterruptState, SessionView } from './reduce';
export { holdSession, leaseMs, runHoldsSession } from './run-lease';
export type { StopReason } from './run-lease';
export { SESSION_ID, SESSION_ID_RULE, checkClientId, isSessionId, ownerOfSessionId, scopedSessionId, sessionKeyOf } from './session-id';
export { limitRefusal, maxPendingTimers, maxQueuedMessages, maxSteersPerRun, queuedWaitMs } from './session-limits';
export { checkMessageText, checkNewMessages } from './new-messages';
export { MAX_PAGE_MESSAGES, PAGE_MESSAGES, messagePage } from './message-page';
export { loadSessionView, loadView, openSession } from './view-cache';
export { writeClientState } from './write-client-state';
export { isOwnSession, ownedSession, sessionNotFound } from './owned-session';
export type { SessionCaller } from './owned-session';
export { sessionTitle } from './session-title';
export { inputs, systemNote, userMessage } from './inputs';
export { totalUsage } from './usage';
export type { UsageEntry, UsageTotals } from './usage';
export { checkModel, modelOf, threadModel, turnModel } from './model-choice';
