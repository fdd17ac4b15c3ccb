// The stream of a thread, as the runtime produces it. Wires translate these parts into
// their own events (AG-UI, OpenAI chunks, Anthropic stream events). Every part derives from
// the event log (log-projector.ts) except a model step's live deltas, whose coalesced form the
// log keeps; each carries the cursor that orders it in the thread (cursor.ts).
import type { Operation } from 'fast-json-patch';
import type { Cursor } from './cursor';
import type { DecisionRecord, QueueItem } from '../../contract';
import type { FoundCode } from '../../error-codes';
import type { InterruptRecord, Vote } from '../../store/pauses';
import type { RunOutcome, StreamedPart } from '../../store/events';
import type { ChatMessage, JsonObject } from '../../store/messages';
import type { CompactionNotice, UsageEntry } from '../session';

export type RunPart =
  | { type: 'run-started'; threadId: string; runId: string; parentRunId?: string }
  | { type: 'messages-snapshot'; messages: ChatMessage[] }
  | { type: 'state-snapshot'; state: JsonObject }
  | StreamedPart
  | { type: 'tool-result'; messageId: string; toolCallId: string; toolName: string; content: string; isError?: boolean }
  /** A running tool's preliminary output (docs/turn-control.md, "Concurrent tools"); its result follows. */
  | { type: 'tool-progress'; toolCallId: string; toolName: string; output: unknown }
  /** The sources a model step cited, right after its parts; the step's assistant message is `messageId`. */
  | { type: 'sources'; messageId: string; sources: { url: string; title?: string }[] }
  | { type: 'state-delta'; patch: Operation[] }
  | { type: 'step-started'; stepName: string }
  | { type: 'step-finished'; stepName: string }
  /**
   * With outcome 'interrupt', `interrupts` are the records the outcome names. `usage`: what the
   * run's own model calls cost, its delegated tasks' included (docs/internals/architecture.md, "Usage");
   * absent when it made none (a replayed resume, a run that only ran tools) or none reported any.
   */
  | { type: 'run-finished'; outcome: RunOutcome; interrupts?: InterruptRecord[]; usage?: UsageEntry[] }
  /**
   * A run failure, or a refusal met while the request waited (its queued message was removed).
   * `details` name what the error is about (the queued message and its run, say); `usage`, on a
   * failure of the log, what the run's model calls cost before it failed.
   */
  | { type: 'run-error'; code: FoundCode; message: string; details?: Record<string, unknown>; usage?: UsageEntry[] }
  /**
   * A decision: in the run it resumes (its input, before the snapshots), or on its own when made
   * outside any run (part of a batch, or an expiry). Every client shows it under the call.
   */
  | { type: 'interrupt-decided'; decision: DecisionRecord }
  /**
   * A vote toward an interrupt's quorum, outside any run (docs/approvals.md, "Quorum and
   * separation of duties"): every vote cast so far, so each card shows how it stands, live.
   */
  | { type: 'interrupt-voted'; interruptId: string; quorum: number; votes: Vote[] }
  /** The thread's older turns are sent compacted from here on (docs/models.md, "Long threads"). */
  | { type: 'context-compacted'; compaction: CompactionNotice }
  /** The stop that ended the run cut these calls (docs/hitl.md, "Stopping a run"); before its run-finished. */
  | { type: 'tools-stopped'; toolCallIds: string[] }
  /** The session stream only: the thread's message queue changed (docs/turn-control.md, "Queue"). Not in the log: no cursor. */
  | { type: 'queue-changed'; queue: QueueItem[] };

/** A part in a thread's stream: where it is (absent on a refused or replayed resume, which the log does not hold) and which run it belongs to. */
export interface StreamPart {
  cursor?: Cursor;
  runId?: string;
  part: RunPart;
}

/** Does this part end its run? */
export function endsRun(part: RunPart): boolean {
  return part.type === 'run-finished' || part.type === 'run-error';
}
