// The contract both sides read (docs/internals/architecture.md, "The shared contract"): the shapes and
// names the server sends and the browser reads, declared once. Types and constants only; it
// imports nothing but server/store/events.ts and the notice names of server/store/notices.ts (types only), so
// client code can take it without the server.
export { HITL_ACTIONS, INBOX_FILTERS, INBOX_PAGE_SIZE, type HitlAction, type InboxFilter, type InboxItem, type InboxList, type ShownVote } from './inbox';
export {
  CONTEXT_COMPACTED,
  INTERRUPT_DECIDED,
  INTERRUPT_VOTES,
  QUEUE_CHANGED,
  SOURCES,
  TOOLS_STOPPED,
  TOOL_PROGRESS,
  type ContextCompactedValue,
  type InterruptDecidedValue,
  type InterruptVotesValue,
  type QueueChangedValue,
  type SourcesContent,
  type ToolProgressContent,
  type ToolsStoppedValue,
} from './custom-events';
export type { DecisionRecord } from './decision-record';
export type { ReplyVersions } from './reply-versions';
export type { FailedReply } from './failed-reply';
export type { ForkParent } from './fork-parent';
export type { QueueItem } from './queue';
export { ALLOWED_TYPES_TEXT, ATTACHMENT_TYPES, formatBytes, userMessageContent, type Attachment, type AttachmentType } from './attachments';
export type { DeliveryItem, DeliveryList } from './deliveries';
export type { RoleChange, TeamList, TeamMemberItem } from './team';
export {
  APPROVAL_OUTCOMES,
  METRIC_WINDOWS,
  type ApprovalMetrics,
  type ApprovalOutcome,
  type MetricWindow,
  type OpenApproval,
  type TimeToDecide,
  type ToolOutcomes,
  type WindowFigures,
} from './approval-metrics';
