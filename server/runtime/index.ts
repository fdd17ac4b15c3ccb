// The runtime's public face (docs/internals/architecture.md, "Rooms"): what the routes, wires, web reads and
// agents use. Nothing outside server/runtime imports a file below this one (lint).
export { describeIssue, firstIssue, startBackgroundLoop } from './common';
export {
  inboxPage,
  inboxParts,
  inputJsonSchema,
  isBrowserOwner,
  isExpired,
  isYesOrNoApproval,
  mayDecide,
  ANY_READER,
  seesOthersApprovals,
  shownDecision,
  shownVote,
  voteReaderOf,
  votesCast,
} from './decisions';
export type { DecisionRequest, InboxPage, InboxPosition, InterruptResponse, VoteReader } from './decisions';
export { Refusal } from './errors';
export { forkParent, forkThread, replyVersions, undoDroppedEffect, undoOffers } from './fork';
export type { UndoOffer } from './fork';
export { startRecoveryLoop, sweep } from './recovery';
export { parseRecordingFile, recordingFile, replay } from './replay';
export type { ReplayReport } from './replay';
export {
  MAX_PAGE_MESSAGES,
  PAGE_MESSAGES,
  SESSION_ID,
  SESSION_ID_RULE,
  emptyView,
  isOwnSession,
  isSessionId,
  loadView,
  messagePage,
  openSession,
  ownedSession,
  pendingInterrupts,
  scopedSessionId,
  sessionKeyOf,
  sessionNotFound,
  sessionTitle,
  writeClientState,
} from './session';
export type { SessionView, UsageEntry, UsageTotals } from './session';
export { modelOf, threadModel, totalUsage } from './session';
export {
  approvalMetrics,
  decisionExport,
  decisionRecords,
  follow,
  formatCursor,
  liveFeed,
  liveRunOf,
  parseCursor,
  queueItems,
  runSoFar,
  sessionReceipts,
  threadStatus,
  untilAborted,
} from './stream';
export type { RunInput, RunSoFar } from './stream';
export type { CursorPosition, RunPart, StreamPart } from './stream';
export { aiEventName, aiEvents } from '../store/ai-event-names';
export type { AiEventName } from '../store/ai-event-names';
export {
  MCP_IDEMPOTENCY_META_KEY,
  ToolError,
  agentContract,
  agentTools,
  checkClientTools,
  handlerContext,
  loadMcpTools,
  requestInput,
  runWithHandlerContext,
} from './tools';
export type { AgentContract, ClientTool } from './tools';
export { refuseThreadOnlyInput, startStatelessRun } from './turn';
export { runDue } from './wake';
export type { DueWork } from './wake';
export type { StartedRun } from './turn';
export {
  changeQueue,
  decideByLink,
  decideInterrupt,
  describeDecision,
  readLink,
  fireDueTimers,
  listGrants,
  readViewAndQueue,
  requestSteer,
  requestStop,
  revokeGrant,
  session,
  startRun,
  startTimerLoop,
} from './turn-control';
export type { GrantListing } from './turn-control';
export { inputs, systemNote, userMessage } from './session';
export type { QueueOperation } from './turn-control';
export {
  argumentsHash,
  deliverOutbox,
  configuredEmailRecipients,
  configuredSlackWebhook,
  emailChannel,
  emailSender,
  escapeHtml,
  linkExpiry,
  notificationTargets,
  keptEmails,
  renderEmail,
  renderInterruptMessage,
  signLink,
  slackChannel,
  startOutboxLoop,
  verifyLink,
} from './notify';
export type { Channel, EmailPreview, InterruptMessage, KeptEmail, LinkAction, LinkClaims, Notice, NoticeType, NotificationTargets } from './notify';
export type { LinkView } from './turn-control';
