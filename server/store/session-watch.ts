// In-process session watchers: who wants to hear that a session may have changed.
// Every backend calls its hub right after a write commits. PostgreSQL also feeds it the
// notifications of other processes (postgres-listener.ts); SQLite is one process in this
// product, so its hub is shared by every store on the same file in the process and that is all.
import type { SessionChange } from './types';

/** Called with the session that may have changed (every session's after a gap: `ANY_SESSION`). */
export type SessionListener = (sessionId: string, change: SessionChange) => void;

/** Watch this "session" to hear every session (Studio's inbox: docs/studio.md). */
export const ANY_SESSION = '*';

export interface WatchHub {
  /** Adds a listener of one session; returns the function that removes it (idempotent). */
  add(sessionId: string, listener: SessionListener): () => void;
  /** Calls the listeners of one session. */
  notify(sessionId: string, change?: SessionChange): void;
  /** Calls every listener once (after a gap in which changes may have been missed). */
  notifyAll(): void;
}

export function createWatchHub(): WatchHub {
  const listeners = new Map<string, Set<SessionListener>>();

  function call(targets: Iterable<SessionListener>, sessionId: string, change: SessionChange) {
    // A copy: a listener may unsubscribe (itself or others) while we iterate.
    for (const listener of [...targets]) {
      try {
        listener(sessionId, change);
      } catch (error) {
        // One bad listener must not keep the others from hearing, nor fail the write.
        console.error('[stackbone] a session watcher threw:', error);
      }
    }
  }

  return {
    add(sessionId, listener) {
      // Wrapped, so that the same function watching twice is two subscriptions.
      const entry: SessionListener = (changed, change) => listener(changed, change);
      let set = listeners.get(sessionId);
      if (!set) listeners.set(sessionId, (set = new Set()));
      set.add(entry);
      return () => {
        const current = listeners.get(sessionId);
        if (!current?.delete(entry)) return;
        if (current.size === 0) listeners.delete(sessionId);
      };
    },
    notify(sessionId, change = 'any') {
      call([...(listeners.get(sessionId) ?? []), ...(sessionId === ANY_SESSION ? [] : (listeners.get(ANY_SESSION) ?? []))], sessionId, change);
    },
    notifyAll() {
      call(
        [...listeners.values()].flatMap((set) => [...set]),
        ANY_SESSION,
        'any',
      );
    },
  };
}

/**
 * The hub every store on one SQLite file in this process shares (like their write queue), so
 * that a write through one store instance wakes the watchers of another. On globalThis, so that
 * modules re-evaluated by Next dev share it too.
 */
export function sharedWatchHub(key: string): WatchHub {
  const registry = globalThis as typeof globalThis & { __stackboneWatchHubs?: Map<string, WatchHub> };
  const hubs = (registry.__stackboneWatchHubs ??= new Map());
  let hub = hubs.get(key);
  if (!hub) hubs.set(key, (hub = createWatchHub()));
  return hub;
}

/**
 * The watch() of one store over a hub: remembers what it added, so that closing the store
 * removes its listeners from a hub other stores may share.
 */
export function storeWatchers(hub: WatchHub) {
  const mine = new Set<() => void>();
  return {
    watch(sessionId: string, listener: SessionListener): () => void {
      const remove = hub.add(sessionId, listener);
      const unsubscribe = () => {
        mine.delete(unsubscribe);
        remove();
      };
      mine.add(unsubscribe);
      return unsubscribe;
    },
    removeAll() {
      for (const unsubscribe of [...mine]) unsubscribe();
    },
  };
}
