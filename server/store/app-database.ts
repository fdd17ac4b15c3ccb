// The app's own tables — the support demo's refund ledger, and yours — live in the same database
// as the sessions: prisma/schema.prisma declares them beside the event log, and the same
// migrations make them. This is their Prisma client, one per process, opened on first use. On
// PostgreSQL its pool is small unless the URL says otherwise: the event store keeps its own.
import { databaseKind, databaseUrl } from './database-url';
import { openPrismaClient, type StoreClient } from './prisma-client';

/** Connections the app's own tables take on PostgreSQL, when DATABASE_URL sets no connection_limit. */
const APP_POOL_SIZE = 2;

const cache = globalThis as typeof globalThis & { __stackboneAppDatabase?: Promise<StoreClient> };

export function appDatabase(): Promise<StoreClient> {
  cache.__stackboneAppDatabase ??= openPrismaClient(withPool(databaseUrl())).then((opened) => opened.client);
  return cache.__stackboneAppDatabase;
}

/** Forgets the client (tests that point DATABASE_URL elsewhere); the next appDatabase() opens a new one. */
export async function closeAppDatabase(): Promise<void> {
  const client = cache.__stackboneAppDatabase;
  cache.__stackboneAppDatabase = undefined;
  await (await client)?.$disconnect();
}

function withPool(url: string): string {
  if (databaseKind(url) !== 'postgres') return url;
  const parsed = new URL(url);
  if (!parsed.searchParams.has('connection_limit')) parsed.searchParams.set('connection_limit', String(APP_POOL_SIZE));
  return parsed.toString();
}
