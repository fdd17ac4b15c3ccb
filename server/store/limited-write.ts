// A write beside a session's log that a limit bounds — its queue, a run's guidance, its timers
// (docs/security.md, "What a request may carry"): the rows are counted and the new one written in
// one transaction, under a lock of the session's side tables on PostgreSQL (hot-path-sql.ts,
// lockSideTables), so requests at the same moment, in this process or another, are counted one
// after the other and cannot pass the limit together. SQLite's writes take turns already.
import { noSuchSession } from './backend-rules';
import type { StoreClient } from './prisma-client';
import { isForeignKeyViolation } from './prisma-errors';
import type { PrismaStoreContext } from './prisma-store-context';
import type { TransactionClient } from './prisma-wakeups';

/**
 * Runs `work` in a transaction holding the session's side-tables lock; with `wake`, the commit
 * wakes the session's watchers (here and, through NOTIFY, elsewhere). A write for a session that
 * does not exist is the caller's bug (noSuchSession).
 */
export async function limitedWrite<T>(
  { hot, wakeups }: Pick<PrismaStoreContext, 'hot' | 'wakeups'>,
  db: StoreClient,
  sessionId: string,
  work: (tx: TransactionClient) => Promise<T>,
  options: { wake: boolean },
): Promise<T> {
  const locked = async (tx: TransactionClient) => {
    const lock = hot.lockSideTables(sessionId);
    if (lock) await tx.$executeRaw(lock);
    return work(tx);
  };
  try {
    return options.wake ? await wakeups.changing(db, sessionId, locked) : await db.$transaction(locked);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw noSuchSession(sessionId, error);
    throw error;
  }
}
