// The CUSTOM events (and the activity type) this server adds to AG-UI, named once for the
// server that sends them and the browser that reads them (docs/architecture.md, "Streams and
// cursors"), with the value each carries.
import type { DecisionActor, DecisionStatus } from '../events';
import type { QueueItem } from './queue';

/** A decision made outside any run (the CLI, /api/hitl, an expiry): its value is an `InterruptDecidedValue`. */
export const INTERRUPT_DECIDED = 'stackbone.interrupt_decided';

export interface InterruptDecidedValue {
  interruptId: string;
  status: DecisionStatus;
  /** Where it was decided. */
  by: DecisionActor['source'];
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
