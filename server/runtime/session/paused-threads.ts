// How many threads one browser identity may have waiting on a person at once (docs/security.md,
// "The open web"). On a public chat every paused thread is a request in the operators' inbox and a
// notice to the desk, and an identity costs one page load: a turn that could pause one more is
// refused (429, nothing written) while the identity already waits on so many. Keys and the local
// owner are operators: not counted.
import type { EventStore } from '../../store/types';
import { setting } from '../../config';
import { Refusal } from '../errors';

/** STACKBONE_MAX_PAUSED_THREADS, default 5. */
function maxPausedThreads(): number {
  return setting('STACKBONE_MAX_PAUSED_THREADS');
}

/** Refuses a new turn of a browser's own identity on `sessionId` while it has the most threads paused elsewhere. */
export async function checkPausedThreads(store: Pick<EventStore, 'listPendingInterrupts'>, ownerId: string, sessionId: string): Promise<void> {
  if (!ownerId.startsWith('browser:')) return;
  const max = maxPausedThreads();
  const pending = await store.listPendingInterrupts(ownerId, { limit: 200 });
  const paused = new Set(pending.filter((row) => row.ownerId === ownerId && row.sessionId !== sessionId).map((row) => row.sessionId));
  if (paused.size < max) return;
  throw new Refusal(
    'too_many_paused_threads',
    `${paused.size} of your conversations already wait for a decision, the most at once (STACKBONE_MAX_PAUSED_THREADS): wait for one, or withdraw a request, then try again.`,
    { limit: max },
  );
}
