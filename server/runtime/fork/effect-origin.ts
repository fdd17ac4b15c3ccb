// Where a dropped effect ran (docs/time-travel.md, "Undoing a dropped effect"). A fork lists the
// effects its original made after the fork point, but a call may have run further up: the
// original may hold it as a copy of its own original's, and a fork of a fork lists what its
// original's fork left behind. Walking up the parents to the thread whose own run it was names
// the effect the same way in every fork that left it behind — that thread and the call's id —
// which is what the undo's idempotency key is made from.
import type { JsonObject } from '../../store/messages';
import type { EventStore, SessionRecord } from '../../store/types';
import { ancestorsOf, loadView } from '../session';

/** The session each of a fork's dropped calls ran in, by call id. */
export async function effectOrigins(store: EventStore, fork: SessionRecord, callIds: string[], initialState: JsonObject): Promise<Map<string, string>> {
  const origins = new Map<string, string>();
  for (const ancestor of await ancestorsOf(store, fork)) {
    const open = callIds.filter((id) => !origins.has(id));
    if (open.length === 0) break;
    const view = await loadView(store, ancestor.id, initialState);
    // Its own run, not a copy: a call it inherited ran in a thread further up.
    for (const id of open) if ((view.toolAttempts[id] ?? 0) > 0 && !view.inheritedToolCallIds.includes(id)) origins.set(id, ancestor.id);
  }
  // The thread it ran in is gone: the parent the fork names stands for it, as it does for the fork's siblings.
  for (const id of callIds) if (!origins.has(id)) origins.set(id, fork.parentId ?? fork.id);
  return origins;
}
