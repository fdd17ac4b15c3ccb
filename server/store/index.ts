// The process's event store. One per process: it owns the database connection (a SQLite
// handle, or a Postgres pool). Cached on globalThis because Next dev re-evaluates modules on
// every edit, and a fresh store per reload would leak connections.
import { databaseUrl, directDatabaseUrl } from './database-url';
import { createPrismaStore } from './prisma-store';
import type { EventStore } from './types';

export type { EventStore, SessionRecord, SessionStatus } from './types';
export { databaseKind, databaseUrl } from './database-url';
const cache = globalThis as typeof globalThis & { __stackboneStore?: EventStore };

export function getStore(): EventStore {
  cache.__stackboneStore ??= createPrismaStore(databaseUrl(), { listenUrl: directDatabaseUrl() });
  return cache.__stackboneStore;
}

/** Closes the process's store and forgets it; the next getStore() opens a new one (tests, shutdown). */
export async function closeStore(): Promise<void> {
  const store = cache.__stackboneStore;
  cache.__stackboneStore = undefined;
  await store?.close();
}
