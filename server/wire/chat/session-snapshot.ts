// A session as its owner sees it (GET /api/v1/sessions/{key}, routes/v1/sessions/session.ts),
// before each wire gives it its own shape (docs/internals/wires.md, "Sessions: x-stackbone-session").
import type { InterruptRecord } from '../../store/pauses';
import type { QueueItem } from '../../contract';
import { forkParent, type SessionView } from '../../runtime';
import type { SessionRecord } from '../../store/types';

export interface SessionSnapshot {
  /** The session as its client names it. */
  key: string;
  record: SessionRecord;
  view: SessionView;
  /** Decisions still awaited (expired ones are taking their default action). */
  pending: InterruptRecord[];
  /** Messages waiting for their turn, in the order they go out. */
  queue: QueueItem[];
}

/** What both chat wires show of a pending decision beside the call it gates, in their snake_case. */
export function pendingDecisionFields(record: InterruptRecord) {
  return { message: record.message, reason: record.reason, allowed_decisions: record.allowedDecisions, expires_at: record.expiresAt ?? null };
}

/** The thread a session was forked from, as both chat wires name a session (`id`); null for an original (docs/time-travel.md). */
export function chatWireParent(view: SessionView) {
  const parent = forkParent(view);
  return parent && { id: parent.threadId, atMessageId: parent.atMessageId, mode: parent.mode };
}
