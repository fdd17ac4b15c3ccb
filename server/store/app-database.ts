// The app's own tables — yours, and any example's — live in the same database
// as the sessions: prisma/schema.prisma declares them beside the event log, and the same
// migrations make them (docs/database.md, "Add a table"). `withAppDatabase(work)` runs work with their Prisma client, one per
// process, opened on first use. On SQLite the work takes its turn with the event store's
// (sqlite-turns.ts: two connections of one process writing at once would deadlock); on
// PostgreSQL it runs at once, on a small pool of its own unless the URL says otherwise.
import { databaseKind, databaseUrl, sqliteFilePath } from './database-url';
import { openPrismaClient, type StoreClient } from './prisma-client';
import { sqliteTurns } from './sqlite-turns';

/** Connections the app's own tables take on PostgreSQL, when DATABASE_URL sets no connection_limit. */
const APP_POOL_SIZE = 2;

const cache = globalThis as typeof globalThis & { __stackboneAppDatabase?: { url: string; client: Promise<StoreClient> } };

/** Runs `work` with the app database's client; keep it short, and do not call the event store inside it. */
export function withAppDatabase<T>(work: (db: StoreClient) => Promise<T>): Promise<T> {
  const url = databaseUrl();
  const run = async () => work(await client(url));
  return databaseKind(url) === 'sqlite' ? sqliteTurns(sqliteFilePath(url))(run) : run();
}

function client(url: string): Promise<StoreClient> {
  if (cache.__stackboneAppDatabase?.url !== url)
    cache.__stackboneAppDatabase = { url, client: openPrismaClient(withPool(url)).then((opened) => opened.client) };
  return cache.__stackboneAppDatabase.client;
}

/** Closes the client (tests that point DATABASE_URL elsewhere); the next use opens a new one. */
export async function closeAppDatabase(): Promise<void> {
  const opened = cache.__stackboneAppDatabase;
  cache.__stackboneAppDatabase = undefined;
  await (await opened?.client.catch(() => undefined))?.$disconnect();
}

function withPool(url: string): string {
  if (databaseKind(url) !== 'postgres') return url;
  const parsed = new URL(url);
  if (!parsed.searchParams.has('connection_limit')) parsed.searchParams.set('connection_limit', String(APP_POOL_SIZE));
  return parsed.toString();
}
