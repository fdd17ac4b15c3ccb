// How the store's hot path (hot-path-sql.ts) reaches the database: a query answers rows, an
// execute the number of rows it changed, and a transaction runs both in one unit that, on
// PostgreSQL, wakes the session's watchers in other processes when it commits (prisma-wakeups.ts).
// Three implementations: a connection of the store's own on a SQLite file (sqlite-hot-path.ts),
// pg on the Prisma client's own pool on PostgreSQL (postgres-hot-path.ts), and Prisma's raw
// queries for a SQLite database held in memory, which a second connection could not reach.
import type { Sql } from '@prisma/client/runtime/client';
import type { StoreClient } from './prisma-client';
import type { Row } from './prisma-rows';
import type { PrismaWakeups, TransactionClient } from './prisma-wakeups';

export interface RawSql {
  query(statement: Sql): Promise<Row[]>;
  execute(statement: Sql): Promise<number>;
}

export interface RawStore extends RawSql {
  /** One transaction; on PostgreSQL it NOTIFYs the session's watchers elsewhere when it commits. */
  transaction<T>(sessionId: string, work: (tx: RawSql) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: runs one statement that sends the session's NOTIFY itself (hot-path-sql.ts,
   * appendStatement), the echo of which this process skips as a transaction's; answers its rows.
   */
  notifyingStatement?(sessionId: string, statement: Sql): Promise<Row[]>;
}

function prismaRawSql(db: StoreClient | TransactionClient): RawSql {
  return {
    query: (statement) => db.$queryRaw<Row[]>(statement),
    execute: (statement) => db.$executeRaw(statement),
  };
}

/** The hot path through Prisma's raw queries, on the store's Prisma client. */
export function prismaRawStore(db: StoreClient, wakeups: PrismaWakeups): RawStore {
  return {
    ...prismaRawSql(db),
    transaction: (sessionId, work) => wakeups.notifyingTransaction(db, sessionId, (tx) => work(prismaRawSql(tx))),
  };
}
