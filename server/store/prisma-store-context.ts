// What the parts of the Prisma store share (prisma-sessions.ts, prisma-queue.ts,
// prisma-run-controls.ts, prisma-timers.ts; put together by prisma-store.ts).
import type { HotPathSql } from './hot-path-sql';
import type { StoreClient } from './prisma-client';
import type { PrismaWakeups } from './prisma-wakeups';
import type { RawStore } from './raw-sql';
import type { WatchHub } from './session-watch';

export interface PrismaStoreContext {
  /** The hot path's statements, qualified with the PostgreSQL schema when there is one. */
  hot: HotPathSql;
  /** Runs `work` with the client when the store's turn comes (sqlite-turns.ts, limit-concurrency.ts); refused once the store is closed. */
  withClient<T>(work: (db: StoreClient) => Promise<T>): Promise<T>;
  /** The same turn for the hot path's statements (raw-sql.ts): on a SQLite file, through the store's own connection. */
  withRaw<T>(work: (raw: RawStore) => Promise<T>): Promise<T>;
  /** This process's watchers of the database's sessions. */
  hub: WatchHub;
  wakeups: PrismaWakeups;
}

/**
 * Whether a text can name a row at all. PostgreSQL's text cannot hold NUL (a query with one
 * fails), so no id, owner or agent name contains it: a lookup by such a name finds nothing —
 * on SQLite too, so both stores answer alike.
 */
export function nameable(...texts: string[]): boolean {
  return texts.every((text) => !text.includes('\u0000'));
}
