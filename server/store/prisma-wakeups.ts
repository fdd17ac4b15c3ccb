// How a write of the Prisma store wakes the session's watchers: in this process through its hub
// right after the commit, and on PostgreSQL in every other process through a NOTIFY sent inside
// the write's transaction (delivered only if it commits; postgres-listener.ts skips its echo here).
import { notifyOnCommit, type PostgresListener } from './postgres-listener';
import type { StoreClient } from './prisma-client';
import type { WatchHub } from './session-watch';

export type TransactionClient = Parameters<Parameters<StoreClient['$transaction']>[0]>[0];

export const noop = () => {};

export interface PrismaWakeups {
  /**
   * A transaction that, on PostgreSQL, NOTIFYs the session's watchers in every other process when
   * it commits. This process's own watchers are the caller's to call, after the commit.
   */
  notifyingTransaction<T>(db: StoreClient, sessionId: string, work: (tx: TransactionClient) => Promise<T>): Promise<T>;
  /** Wakes the session's watchers here and elsewhere with no write of its own (a repeated stop changes nothing, but its caller may be waiting on it). */
  wakeAlone(db: StoreClient, sessionId: string): Promise<void>;
  /** A write of the session's side tables in a transaction that wakes its watchers, here and in other processes. */
  changing<T>(db: StoreClient, sessionId: string, work: (tx: TransactionClient) => Promise<T>): Promise<T>;
}

/** `listener`: the LISTEN connection on PostgreSQL; null on SQLite, whose stores all share `hub`. */
export function prismaWakeups(hub: WatchHub, listener: PostgresListener | null): PrismaWakeups {
  /** A failed transaction releases the echo it awaited: nothing of the sender is skipped then. */
  async function notifyingTransaction<T>(db: StoreClient, sessionId: string, work: (tx: TransactionClient) => Promise<T>): Promise<T> {
    let release = noop;
    try {
      return await db.$transaction(async (tx) => {
        const value = await work(tx);
        if (listener) release = await notifyOnCommit(listener, sessionId, (sql, values) => tx.$queryRawUnsafe(sql, ...values));
        return value;
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  return {
    notifyingTransaction,
    async wakeAlone(db, sessionId) {
      if (listener) await notifyingTransaction(db, sessionId, async () => undefined);
      hub.notify(sessionId);
    },
    async changing(db, sessionId, work) {
      const result = await notifyingTransaction(db, sessionId, work);
      hub.notify(sessionId);
      return result;
    },
  };
}
