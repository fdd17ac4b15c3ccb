// GET /api/v1/sessions/{key}: the session as its owner sees it, before each wire gives it its
// own shape (docs/wires.md, "Sessions: x-stackbone-session").
import { findAgent } from '../../agents';
import { resolveOwner } from '../../identity/owner';
import type { InterruptRecord } from '../../events';
import type { QueueItem } from '../../contract';
import { isExpired, ownedSession, pendingInterrupts, queueItems, readViewAndQueue, scopedSessionId, type SessionView } from '../../runtime';
import { getStore } from '../../store';
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

/** The session as its owner sees it; an unknown or foreign one is not found (both the same 404). */
export async function readSession(ownerId: string, key: string): Promise<SessionSnapshot> {
  const store = getStore();
  const record = await ownedSession(store, { sessionId: scopedSessionId(ownerId, key), ownerId });
  const agent = findAgent(record.agent);
  // The queue, then the log: a message going out between the two reads shows once (queue.ts).
  const { view, queue } = await readViewAndQueue(store, record.id, agent?.initialState ?? {});
  const now = Date.now();
  return { key, record, view, pending: pendingInterrupts(view).filter((interrupt) => !isExpired(interrupt, now)), queue: queueItems(queue) };
}

/** GET /api/v1/sessions/{key}, in the shape of the wire that asks. */
export async function handleSessionRead(request: Request, key: string, wire: { shape: (snapshot: SessionSnapshot) => unknown; errorResponse: (error: unknown) => Response }): Promise<Response> {
  try {
    const snapshot = await readSession(resolveOwner(request), key);
    return Response.json(wire.shape(snapshot), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return wire.errorResponse(error);
  }
}
