// The CUSTOM events (and the activity type) this server adds to AG-UI, named once for the
// server that sends them and the browser that reads them (docs/internals/architecture.md, "Streams and
// cursors"), with the value each carries.
import type { DecisionActor, DecisionStatus, InterruptReason } from '../store/pauses';
import type { ContextCompaction } from '../store/events';
import type { QueueItem } from './queue';
import type { ShownVote } from './inbox';
import type { DecisionRecord } from './decision-record';

/**
 * A decision on an interrupt, every one: in the run it resumes (right after its RUN_STARTED), or
 * on its own when made outside any run (one of a batch, an expiry). Its value is an
 * `InterruptDecidedValue`: a `DecisionRecord` with `by` as its source alone
 * (docs/hitl.md, "Decisions in the chat").
 */
export const INTERRUPT_DECIDED = 'stackbone.interrupt_decided';

export interface InterruptDecidedValue {
  interruptId: string;
  status: DecisionStatus;
  /** Where it was decided. */
  by: DecisionActor['source'];
  /** What proved who decided. */
  credential?: DecisionActor['credential'];
  toolCallId: string;
  toolName: string;
  interruptReason: InterruptReason;
  /** The arguments the model proposed. */
  argsAsked: unknown;
  /** The arguments that ran instead (an approval with edits). */
  editedArgs?: unknown;
  reason?: string;
  expired?: boolean;
  /** A quorum's every vote, in order (DecisionRecord's `votes`). */
  votes?: DecisionRecord['votes'];
  /** When the server recorded it (ISO 8601). */
  at: string;
}

/**
 * A vote toward an interrupt's quorum that did not decide it yet (docs/approvals.md, "Quorum and
 * separation of duties"), outside any run: its value is an `InterruptVotesValue`, every vote so
 * far as this reader may see them (who voted only to a key holder or a member; `mine` on theirs).
 */
export const INTERRUPT_VOTES = 'stackbone.interrupt_votes';

export interface InterruptVotesValue {
  interruptId: string;
  quorum: number;
  votes: ShownVote[];
}

/**
 * A stop cut these tool calls (docs/hitl.md, "Stopping a run"): they never ran, or did not
 * finish. Sent in the stopped run, before its RUN_FINISHED; its value is a `ToolsStoppedValue`.
 */
export const TOOLS_STOPPED = 'stackbone.tools_stopped';

export interface ToolsStoppedValue {
  toolCallIds: string[];
}

/**
 * The thread's older turns were compacted to fit its agent's context budget (docs/models.md,
 * "Long threads"): the model is sent a summary of them from here on, while the log and the chat
 * keep every message. Sent in the run that compacted, before its next step; its value is a
 * `ContextCompactedValue`, and the hydration JSON's `compactions` lists every one.
 */
export const CONTEXT_COMPACTED = 'stackbone.context_compacted';

export interface ContextCompactedValue extends Pick<ContextCompaction, 'throughMessageId' | 'method' | 'summary' | 'tokensBefore' | 'tokensAfter'> {
  /** When the server recorded it (ISO 8601). */
  at: string;
}

/** The session stream's message queue changed (docs/turn-control.md, "Queue"): its value is a `QueueChangedValue`. */
export const QUEUE_CHANGED = 'stackbone.queue';

export interface QueueChangedValue {
  /** The whole queue, in the order it goes out. */
  queue: QueueItem[];
}

/**
 * The activity type of a running tool's preliminary output: an `ACTIVITY_SNAPSHOT` whose
 * content is a `ToolProgressContent`, one activity message per call, replaced by each new
 * output (docs/turn-control.md, "Concurrent tools").
 */
export const TOOL_PROGRESS = 'stackbone.tool_progress';

export interface ToolProgressContent {
  toolCallId: string;
  toolName: string;
  output: unknown;
}

/**
 * The activity type of the sources a model step cited (a web search's results): one
 * `ACTIVITY_SNAPSHOT` right after the step, and an activity message right after its assistant
 * message in every snapshot, whose content is a `SourcesContent` (docs/internals/architecture.md,
 * "Reasoning and provider metadata").
 */
export const SOURCES = 'stackbone.sources';

export interface SourcesContent {
  /** The assistant message whose step cited them. */
  messageId: string;
  sources: { url: string; title?: string }[];
}
