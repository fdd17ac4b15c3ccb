// GET /api/v1/sessions/{key}: the session as its owner sees it, before each wire gives it its
// own shape (docs/wires.md, "Sessions: x-stackbone-session").
import { findAgent } from '../../agents';
import type { InterruptRecord } from '../../events';
import { isExpired } from '../../runtime/interrupts';
import { pendingInterrupts, type SessionView } from '../../runtime/reduce';
import { loadView } from '../../runtime/views';
import { getStore } from '../../store';
import type { SessionRecord } from '../../store/types';

export interface SessionSnapshot {
  record: SessionRecord;
  view: SessionView;
  /** Decisions still awaited (expired ones are taking their default action). */
  pending: InterruptRecord[];
}

/** The session as its owner sees it; null for an unknown or foreign session (both 404). */
export async function readSession(ownerId: string, key: string): Promise<SessionSnapshot | null> {
  const store = getStore();
  const record = await store.getSession(key);
  if (!record || record.ownerId !== ownerId) return null;
  const agent = findAgent(record.agent);
  const view = await loadView(store, key, agent?.initialState ?? {});
  const now = Date.now();
  return { record, view, pending: pendingInterrupts(view).filter((interrupt) => !isExpired(interrupt, now)) };
}
