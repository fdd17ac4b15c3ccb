// The session view, kept warm. The log is append-only and every seq is written once, so a
// view folded up to seq N stays true forever: a later read needs only the events after N.
// Every instance still reads the tail from the database, so a second server sees the same
// truth; the cache only saves re-reading and re-folding the past.
import type { DeepAgent } from '../../define';
import type { JsonObject } from '../../events';
import type { EventStore, SessionRecord } from '../../store/types';
import { Refusal } from '../errors';
import { emptyView, reduceAll, type SessionView } from './reduce';
import { sessionKeyOf } from './session-id';
import { isOwnSession, sessionNotFound } from './owned-session';

/** Sessions kept per store; the least recently read is dropped first. */
const CAPACITY = Number(process.env.STACKBONE_VIEW_CACHE) || 500;

const caches = new WeakMap<EventStore, Map<string, SessionView>>();

export async function loadView(store: EventStore, sessionId: string, initialState: JsonObject): Promise<SessionView> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  const cached = cache.get(sessionId);
  const from = cached ?? emptyView(initialState);
  const view = reduceAll(await store.readEvents(sessionId, from.seq), initialState, from);
  cache.delete(sessionId);
  cache.set(sessionId, view);
  if (cache.size > CAPACITY) cache.delete(cache.keys().next().value!);
  return view;
}

/**
 * A session as one owner's agent sees it: its record (null while it does not exist yet) and
 * view. Another owner's session is not found, whatever it holds; a session of another agent
 * is refused.
 */
export async function openSession(
  store: EventStore,
  sessionId: string,
  ownerId: string,
  agent: DeepAgent,
): Promise<{ session: SessionRecord | null; view: SessionView }> {
  const session = await store.getSession(sessionId);
  if (session && !isOwnSession(session, { ownerId })) throw sessionNotFound({ sessionId });
  if (session && session.agent !== agent.name) {
    throw new Refusal('agent_mismatch', `Session "${sessionKeyOf(sessionId)}" belongs to agent "${session.agent}", not "${agent.name}".`);
  }
  if (!session) return { session, view: emptyView(agent.initialState) };
  return loadSessionView(store, session, agent.initialState);
}

/**
 * A session's view, with its record as new as the view: the lease that says whether a run holds
 * the session must not be older than the log the view folds. Read the other way round, a run
 * that started between the two reads (a decision's continuation, on this process or another)
 * shows in the view as running with the lease of the turn before it — none — and looks
 * abandoned, so a second run would take over a live one (docs/architecture.md, "Two writers
 * never interleave"). The record is read again only when the log moved past it.
 */
export async function loadSessionView(
  store: EventStore,
  session: SessionRecord,
  initialState: JsonObject,
): Promise<{ session: SessionRecord; view: SessionView }> {
  const view = await loadView(store, session.id, initialState);
  if (view.seq === session.headSeq) return { session, view };
  return { session: (await store.getSession(session.id)) ?? session, view };
}
