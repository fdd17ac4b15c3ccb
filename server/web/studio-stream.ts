// Studio's live feed (docs/studio.md): one SSE stream per Studio tab that says "session S of
// yours changed" — an append, a decision, a stop, from any process on the database — so the
// inbox and the open audit trail re-read at once. It carries no data of its own: what changed
// is read through the same owner-scoped reads as everything else.
import { getStore } from '../store';
import { ANY_SESSION } from '../store/session-watch';
import { isBrowserOwner, untilAborted, sessionKeyOf } from '../runtime';

export interface SessionChanged {
  /** The session as its owner names it (its key), or ANY_SESSION after a gap. */
  sessionId: string;
}

/**
 * Changes to the owner's sessions, coalesced per wake-up, until `signal` aborts or `maxMs`
 * passes. A key holder also hears of the browsers' sessions, where decisions kept for key
 * holders may wait (docs/security.md, "Approvers"); what they may read is still decided by the reads.
 */
export async function* ownerChanges(ownerId: string, options: { signal?: AbortSignal; maxMs: number; keyHolder?: boolean }): AsyncGenerator<SessionChanged> {
  const store = getStore();
  const owners = new Map<string, string | null>();
  let pending = new Set<string>();
  let wake: (() => void) | undefined;
  const unwatch = store.watch(ANY_SESSION, (sessionId) => {
    pending.add(sessionId);
    wake?.();
  });
  const deadline = Date.now() + options.maxMs;
  try {
    while (!options.signal?.aborted && Date.now() < deadline) {
      if (pending.size === 0) {
        await untilAborted(
          new Promise<void>((resolve) => {
            wake = resolve;
            const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
            timer.unref?.();
          }),
          options.signal,
        );
        wake = undefined;
        continue;
      }
      const changed = pending;
      pending = new Set();
      for (const sessionId of changed) {
        // After a gap (a lost LISTEN connection) every session may have changed: say so once.
        if (sessionId === ANY_SESSION) {
          yield { sessionId: ANY_SESSION };
          continue;
        }
        if (!owners.has(sessionId)) owners.set(sessionId, (await store.getSession(sessionId))?.ownerId ?? null);
        const owner = owners.get(sessionId);
        if (owner === ownerId || (options.keyHolder && owner && isBrowserOwner(owner))) yield { sessionId: sessionKeyOf(sessionId) };
      }
    }
  } finally {
    unwatch();
  }
}
