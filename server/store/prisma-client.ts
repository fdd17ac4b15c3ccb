// Opens a Prisma client for a database URL, with the driver adapter of its kind.
// Both generated clients and both drivers are loaded lazily, so a Postgres deployment never
// loads the native better-sqlite3 module and a SQLite one never loads pg.
import { existsSync } from 'node:fs';
import type { Pool } from 'pg';
import type { PrismaClient } from '../../generated/prisma-sqlite/client';
import { databaseKind, sqliteFilePath, type DatabaseKind } from './database-url';
import { setting, type Env } from '../config';

/**
 * The SQLite client's type stands for both: the two schemas declare the same models, so the
 * generated model APIs agree (the PostgreSQL schema is generated from the SQLite one: docs/database.md).
 */
export type StoreClient = PrismaClient;

export interface OpenedClient {
  kind: DatabaseKind;
  client: StoreClient;
  /** PostgreSQL: the client's pool of connections, which the store's hot path shares (postgres-hot-path.ts). */
  pool?: Pool;
}

/** How long a SQLite writer waits for another connection's (or process's) write lock. */
const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/**
 * Interactive transactions queue for a pooled connection (Postgres, 10 by default) or behind
 * the store's SQLite queue; the store's transactions are a few statements, so these are
 * generous bounds on waiting, not on work.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

export async function openPrismaClient(url: string): Promise<OpenedClient> {
  const kind = databaseKind(url);
  return kind === 'postgres' ? { kind, ...(await openPostgres(url)) } : { kind, client: await openSqlite(url) };
}

/**
 * better-sqlite3 would silently create an empty file and every query would then fail with "table
 * does not exist"; say what to do instead.
 */
export function assertSqliteFileExists(file: string): void {
  if (file !== ':memory:' && !existsSync(file)) {
    throw new Error(`SQLite database ${file} does not exist: run \`npm run db:migrate\` (node scripts/db.mjs migrate) first.`);
  }
}

async function openSqlite(url: string): Promise<StoreClient> {
  const file = sqliteFilePath(url);
  assertSqliteFileExists(file);
  const [{ PrismaBetterSQLite3 }, { PrismaClient }] = await Promise.all([
    import('@prisma/adapter-better-sqlite3'),
    import('../../generated/prisma-sqlite/client'),
  ]);
  const adapter = new PrismaBetterSQLite3({ url: file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  const client = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  // WAL: readers (a second server, the CLI) never block the writer, nor it them.
  // foreign_keys is per connection and off by default in SQLite; the schema relies on it
  // for ON DELETE CASCADE.
  const [mode] = await client.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode = WAL');
  await client.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  // As the store's own connection (sqlite-hot-path.ts): NORMAL in WAL mode, whichever connection
  // switched the file to it (docs/deploy.md, "What a SQLite file keeps").
  if (mode?.journal_mode === 'wal') await client.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
  return client;
}

async function openPostgres(url: string): Promise<{ client: StoreClient; pool: Pool }> {
  const [{ PrismaPg }, { PrismaClient }, { default: pg }] = await Promise.all([
    import('@prisma/adapter-pg'),
    import('../../generated/prisma-postgres/client'),
    import('pg'),
  ]);
  const { connectionString, schema } = parsePostgresUrl(url);
  // One pool for Prisma and the store's own statements, so that a process keeps the connections
  // it says it keeps (postgresPoolSize); Prisma ends it on $disconnect.
  const pool = new pg.Pool({ connectionString, max: postgresPoolSize(url) });
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    // With a schema, Prisma qualifies every table name with it (no search_path needed).
    ...(schema ? { schema } : {}),
  });
  const client = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  return { client: client as unknown as StoreClient, pool };
}

/** pg's own default, when the URL sets no `connection_limit`: a long-lived server. */
const DEFAULT_POSTGRES_POOL_SIZE = 10;

/**
 * On Vercel (VERCEL=1) every function instance has a pool of its own and instances come and go
 * with traffic: fewer connections each keep the sum under the database's limit
 * (docs/deploy.md, "Connections").
 */
const FUNCTION_POSTGRES_POOL_SIZE = 5;

/** The connections a process keeps to PostgreSQL: `connection_limit` in the URL, else 5 on Vercel and 10 elsewhere. */
export function postgresPoolSize(url: string, env?: Env): number {
  return parsePostgresUrl(url).poolSize ?? (setting('VERCEL', env) ? FUNCTION_POSTGRES_POOL_SIZE : DEFAULT_POSTGRES_POOL_SIZE);
}

/** Splits Prisma's own URL parameters (schema, connection_limit) from what pg understands. */
export function parsePostgresUrl(url: string): { connectionString: string; schema?: string; poolSize?: number } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? undefined;
  const limit = Number(parsed.searchParams.get('connection_limit'));
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('connection_limit');
  return {
    connectionString: parsed.toString(),
    schema,
    poolSize: Number.isInteger(limit) && limit > 0 ? limit : undefined,
  };
}

/** A client opened on first use; a failed open is retried by the next call, not cached. */
export function lazyPrismaClient(databaseUrl: string) {
  let opening: Promise<OpenedClient> | null = null;
  const open = (): Promise<OpenedClient> =>
    (opening ??= openPrismaClient(databaseUrl).catch((error: unknown) => {
      opening = null;
      throw error;
    }));
  return {
    get: async (): Promise<StoreClient> => (await open()).client,
    /** The client with its pool (PostgreSQL). */
    opened: open,
    async close() {
      const pending = opening;
      opening = null;
      if (pending) await (await pending.catch(() => null))?.client.$disconnect();
    },
  };
}
