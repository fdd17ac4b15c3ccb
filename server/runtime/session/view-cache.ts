// The session view, kept warm. The log is append-only and every seq is written once, so a
// view folded up to seq N stays true forever: a later read needs only the events after N.
// Every instance still reads the tail from the database, so a second server sees the same
// truth; the cache only saves re-reading and re-folding the past. It is bounded by count and by
// bytes, so that long threads cannot fill the memory.
import type { DeepAgent } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import type { EventStore, SessionRecord } from '../../store/types';
import { approximateBytes } from '../common';
import { Refusal } from '../errors';
import { emptyView, reduceAll, type SessionView } from './reduce';
import { sessionKeyOf } from './session-id';
import { isOwnSession, sessionNotFound } from './owned-session';
import { setting } from '../../config';

/** Sessions kept per store (STACKBONE_VIEW_CACHE, 500); the least recently read is dropped first. */
function capacity(): number {
  return setting('STACKBONE_VIEW_CACHE');
}

/**
 * And at most so many bytes of views (STACKBONE_VIEW_CACHE_BYTES, 64 MB), each counted as the
 * characters of the events it folds (approximateBytes): a few long threads must not hold the
 * memory 500 short ones would. A view larger than all of it is not kept (docs/security.md, "What a
 * request may carry").
 */
function capacityBytes(): number {
  return setting('STACKBONE_VIEW_CACHE_BYTES');
}

interface CachedView {
  view: SessionView;
  bytes: number;
}

/** A store's views, least recently read first, and the bytes they hold together. */
interface ViewCache {
  views: Map<string, CachedView>;
  bytes: number;
}

const caches = new WeakMap<EventStore, ViewCache>();

export async function loadView(store: EventStore, sessionId: string, initialState: JsonObject): Promise<SessionView> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = { views: new Map(), bytes: 0 }));
  const cached = cache.views.get(sessionId);
  const events = await store.readEvents(sessionId, cached?.view.seq ?? 0);
  const view = reduceAll(events, initialState, cached?.view ?? emptyView(initialState));
  const bytes = events.reduce((sum, { event }) => sum + approximateBytes(event), cached?.bytes ?? 0);
  // Whatever another read put here meanwhile gives way to this one, the newest.
  dropView(cache, sessionId);
  const [most, mostBytes] = [capacity(), capacityBytes()];
  if (bytes <= mostBytes) {
    cache.views.set(sessionId, { view, bytes });
    cache.bytes += bytes;
  }
  while (cache.views.size > most || cache.bytes > mostBytes) dropView(cache, cache.views.keys().next().value!);
  return view;
}

/** Whether this process has read the session's log (and so knows it exists, or existed). */
export function holdsView(store: EventStore, sessionId: string): boolean {
  return caches.get(store)?.views.has(sessionId) ?? false;
}

function dropView(cache: ViewCache, sessionId: string): void {
  const dropped = cache.views.get(sessionId);
  if (!dropped) return;
  cache.views.delete(sessionId);
  cache.bytes -= dropped.bytes;
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
 * abandoned, so a second run would take over a live one (docs/internals/architecture.md, "Two writers
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
