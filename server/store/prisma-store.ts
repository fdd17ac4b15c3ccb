// The EventStore over Prisma, one implementation for SQLite and PostgreSQL, put together from its
// parts: sessions and their logs (prisma-sessions.ts), the queue (prisma-queue.ts), stops and
// steers (prisma-run-controls.ts), timers (prisma-timers.ts), the outbox (prisma-outbox.ts) and the
// people approvals name (prisma-people.ts).
// Appends are compare-and-set on Session.headSeq: the session row is claimed first (an UPDATE
// conditioned on the head the writer read), then the events are inserted, in one transaction.
// Claiming first takes the write lock before anything else (the row lock in Postgres, the
// database lock in SQLite), so a losing writer finds the head moved and writes nothing; the
// (sessionId, seq) primary key is a second guard.
// Watchers hear of every append and stop: from this process right after it commits, and on
// PostgreSQL from other processes through NOTIFY (postgres-listener.ts, prisma-wakeups.ts).
import { databaseKind, sqliteFilePath } from './database-url';
import { hotPathSql } from './hot-path-sql';
import { limitConcurrency } from './limit-concurrency';
import { createPostgresListener } from './postgres-listener';
import { lazyPrismaClient, parsePostgresUrl, postgresPoolSize } from './prisma-client';
import { explainMissingTables } from './prisma-errors';
import { prismaOutbox } from './prisma-outbox';
import { prismaPeople } from './prisma-people';
import { prismaQueue } from './prisma-queue';
import { prismaRunControls } from './prisma-run-controls';
import { prismaSessionsAndLog } from './prisma-sessions';
import type { PrismaStoreContext } from './prisma-store-context';
import { prismaTimers } from './prisma-timers';
import { noop, prismaWakeups } from './prisma-wakeups';
import { postgresRawStore } from './postgres-hot-path';
import { prismaRawStore, type RawStore } from './raw-sql';
import { createWatchHub, sharedWatchHub, storeWatchers } from './session-watch';
import { openSqliteHotPath, type SqliteHotPath } from './sqlite-hot-path';
import { sqliteTurns } from './sqlite-turns';
import type { EventStore } from './types';

export interface PrismaStoreOptions {
  /**
   * Where the LISTEN connection goes (Postgres): the database's unpooled URL when databaseUrl
   * goes through a pooler in transaction mode, which drops a LISTEN at the end of its
   * transaction. Default: databaseUrl.
   */
  listenUrl?: string;
}

export function createPrismaStore(databaseUrl: string, options: PrismaStoreOptions = {}): EventStore {
  const kind = databaseKind(databaseUrl);
  const connection = lazyPrismaClient(databaseUrl);
  // Postgres: one place per pooled connection but one, which a query of its own may borrow (listRecoverable's pair).
  const exclusive = kind === 'sqlite' ? sqliteTurns(sqliteFilePath(databaseUrl)) : limitConcurrency(Math.max(1, postgresPoolSize(databaseUrl) - 1));
  // SQLite is one process: the stores on one file in it share their watchers, and that is
  // everyone. Postgres stores each have their own, and hear each other through NOTIFY.
  const hub = kind === 'sqlite' && sqliteFilePath(databaseUrl) !== ':memory:' ? sharedWatchHub(sqliteFilePath(databaseUrl)) : createWatchHub();
  const watchers = storeWatchers(hub);
  // Opened by the first watch(), not here: most processes never watch.
  const listener = kind === 'postgres' ? createPostgresListener(options.listenUrl ?? databaseUrl, hub) : null;
  const wakeups = prismaWakeups(hub, listener);
  // The hot path's statements (hot-path-sql.ts) skip Prisma's query planning: a SQLite file's go
  // through a connection of the store's own (sqlite-hot-path.ts); one held in memory stays with
  // Prisma, as a second connection would open another database.
  const sqliteFile = kind === 'sqlite' ? sqliteFilePath(databaseUrl) : null;
  let sqliteHotPath: Promise<SqliteHotPath> | null = null;
  const openHotPath = (file: string) =>
    (sqliteHotPath ??= openSqliteHotPath(file).catch((error: unknown) => {
      sqliteHotPath = null;
      throw error;
    }));
  // PostgreSQL's goes straight through pg on the Prisma client's pool (postgres-hot-path.ts).
  let postgresHotPath: Promise<RawStore> | null = null;
  const rawStore = async (): Promise<RawStore> => {
    if (sqliteFile && sqliteFile !== ':memory:') return openHotPath(sqliteFile);
    const { client, pool } = await connection.opened();
    if (!pool) return prismaRawStore(client, wakeups);
    return (postgresHotPath ??= postgresRawStore(pool, listener));
  };
  let closed = false;

  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('The event store is closed.'));
    return exclusive(work).catch((error: unknown) => {
      throw explainMissingTables(error);
    });
  };
  const context: PrismaStoreContext = {
    hot: hotPathSql(kind === 'postgres', kind === 'postgres' ? parsePostgresUrl(databaseUrl).schema : undefined),
    withClient: async (work) => inTurn(async () => work(await connection.get())),
    withRaw: async (work) => inTurn(async () => work(await rawStore())),
    hub,
    wakeups,
  };

  return {
    kind,
    ...prismaSessionsAndLog(context),
    ...prismaQueue(context),
    ...prismaRunControls(context),
    ...prismaTimers(context),
    ...prismaOutbox(context),
    ...prismaPeople(context),

    watch(sessionId, onChange) {
      if (closed) return noop;
      const unsubscribe = watchers.watch(sessionId, onChange);
      listener?.start();
      return unsubscribe;
    },

    async close() {
      if (closed) return;
      closed = true;
      watchers.removeAll();
      await listener?.close();
      // Let queued work finish before the connections go.
      await exclusive(async () => {
        const hotPath = await sqliteHotPath?.catch(() => null);
        hotPath?.close();
        await connection.close();
      });
    },
  };
}
