// A thread's lineage (docs/time-travel.md, "Lineage"): the threads it was forked from and those
// forked from it, each session's row naming its parent (Session.parentId). A fork is its owner's,
// so a lineage never crosses owners. Read from the database, so every server process sees the
// same lineage — and the undos asked for across it, which is how one effect is undone once
// whichever fork asks (docs/time-travel.md, "Undoing a dropped effect").
import type { JsonObject } from '../../store/messages';
import type { EventStore, SessionRecord } from '../../store/types';
import { sessionKeyOf } from './session-id';
import { loadView } from './view-cache';

/** How many forks of one thread a lineage reads (one listing's page); forks past them are not looked at. */
const FORKS_READ = 1000;
/** How far up a parent chain is walked: a guard against a loop, which forking never writes. */
const MAX_DEPTH = 1000;

/** The threads a thread was forked from, nearest first: its parent, the parent's parent, … A parent that is gone ends the walk. */
export async function ancestorsOf(store: EventStore, session: SessionRecord): Promise<SessionRecord[]> {
  const found: SessionRecord[] = [];
  const seen = new Set([session.id]);
  for (let parentId = session.parentId; parentId && !seen.has(parentId) && found.length < MAX_DEPTH;) {
    const parent = await store.getSession(parentId);
    if (!parent || parent.ownerId !== session.ownerId) break;
    found.push(parent);
    seen.add(parent.id);
    parentId = parent.parentId;
  }
  return found;
}

/** Every thread of a thread's lineage, itself among them: the original it descends from, every fork of it, and of those, … */
async function lineageOf(store: EventStore, session: SessionRecord): Promise<SessionRecord[]> {
  const root = (await ancestorsOf(store, session)).at(-1) ?? session;
  const lineage = [root];
  const seen = new Set([root.id]);
  for (let index = 0; index < lineage.length; index++) {
    for (const fork of await store.listSessions(root.ownerId, { parentId: lineage[index]!.id, limit: FORKS_READ })) {
      if (seen.has(fork.id)) continue;
      seen.add(fork.id);
      lineage.push(fork);
    }
  }
  return lineage;
}

/** An undo asked for in one thread of a lineage. */
export interface LineageUndo {
  sessionId: string;
  /** The thread's key, as its owner names it. */
  threadId: string;
  /** The dropped call it undoes. */
  of: string;
  /** The undo call. */
  callId: string;
  /** The idempotency key it runs under: one per effect, whichever fork asks. */
  key: string;
  /** It started in this thread (not in a thread this one copied it from): its effect may be done. */
  started: boolean;
}

/** Every undo asked for across a thread's lineage, whether it waits for its approval, ran, or was refused. */
export async function undosInLineage(store: EventStore, session: SessionRecord, initialState: JsonObject): Promise<LineageUndo[]> {
  const members = await lineageOf(store, session);
  const views = await Promise.all(members.map((member) => loadView(store, member.id, initialState)));
  return members.flatMap((member, index) => {
    const view = views[index]!;
    return Object.entries(view.undoneBy).flatMap(([of, callId]): LineageUndo[] => {
      const key = view.undoKeys[callId];
      if (!key) return [];
      const started = (view.toolAttempts[callId] ?? 0) > 0 && !view.inheritedToolCallIds.includes(callId);
      return [{ sessionId: member.id, threadId: sessionKeyOf(member.id), of, callId, key, started }];
    });
  });
}
