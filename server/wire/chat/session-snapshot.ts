// GET /api/v1/sessions/{key}: the session as its owner sees it, before each wire gives it its
// own shape (docs/wires.md, "Sessions: x-stackbone-session").
import { findAgent } from '../../agents';
import { HttpError } from '../../http/errors';
import { resolveOwner } from '../../http/owner';
import type { InterruptRecord } from '../../events';
import { isExpired } from '../../runtime';
import { queueItems, readViewAndQueue, type QueueItem } from '../../runtime';
import { pendingInterrupts, type SessionView } from '../../runtime';
import { getStore } from '../../store';
import type { SessionRecord } from '../../store/types';
import { scopedSessionId } from '../../runtime';

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

/** The session as its owner sees it; null for an unknown or foreign session (both 404). */
export async function readSession(ownerId: string, key: string): Promise<SessionSnapshot | null> {
  const store = getStore();
  const record = await store.getSession(scopedSessionId(ownerId, key));
  if (!record || record.ownerId !== ownerId) return null;
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
    if (!snapshot) throw new HttpError(404, 'session_not_found', `No session "${key}".`);
    return Response.json(wire.shape(snapshot), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return wire.errorResponse(error);
  }
}
