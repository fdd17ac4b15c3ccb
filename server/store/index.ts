// The process's event store. One per process: it owns the database connection (a SQLite
// handle, or a Postgres pool). Cached on globalThis because Next dev re-evaluates modules on
// every edit, and a fresh store per reload would leak connections. With a waker configured
// (STACKBONE_WAKER=vercel-queue) its writes ask to be woken for the work they leave due
// (waking-store.ts); every decision it writes is signed (receipt-signing-store.ts). With
// OpenTelemetry on, its pauses and decisions are counted and traced (telemetry-store.ts).
import { telemetryOn } from '../telemetry';
import { configuredWaker } from '../wake';
import { databaseUrl, directDatabaseUrl } from './database-url';
import { createPrismaStore } from './prisma-store';
import { receiptSigningStore } from './receipt-signing-store';
import { telemetryStore } from './telemetry-store';
import type { EventStore } from './types';
import { wakingStore } from './waking-store';

export type { EventStore, SessionRecord, SessionStatus } from './types';
export { databaseKind, databaseUrl } from './database-url';
export { settleWakes } from './waking-store';
const cache = globalThis as typeof globalThis & { __stackboneStore?: EventStore };

export function getStore(): EventStore {
  if (cache.__stackboneStore) return cache.__stackboneStore;
  const signing = receiptSigningStore(createPrismaStore(databaseUrl(), { listenUrl: directDatabaseUrl() }));
  const store = telemetryOn() ? telemetryStore(signing) : signing;
  const waker = configuredWaker();
  cache.__stackboneStore = waker ? wakingStore(store, waker) : store;
  return cache.__stackboneStore;
}

/** Closes the process's store and forgets it; the next getStore() opens a new one (tests, shutdown). */
export async function closeStore(): Promise<void> {
  const store = cache.__stackboneStore;
  cache.__stackboneStore = undefined;
  await store?.close();
}
