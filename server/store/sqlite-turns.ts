// One SQLite file, one writer at a time per process: the event store and the app's own tables
// (app-database.ts) take turns through the same queue.
import { limitConcurrency, type Exclusive } from './limit-concurrency';

/**
 * SQLite operations take turns, per database file and process, for two reasons:
 * - better-sqlite3 is one connection: a query issued while another caller's interactive
 *   transaction is open runs INSIDE that transaction (it sees uncommitted rows, and its
 *   writes vanish if that transaction rolls back);
 * - its busy wait is synchronous: a second connection in the same process waiting for the
 *   write lock blocks the event loop, so the holder can never commit (a deadlock until the
 *   busy timeout). Across processes the busy timeout works as intended.
 * Postgres gives every transaction its own pooled connection; its operations wait for one here
 * (limit-concurrency.ts).
 * Everything that opens a connection to the file in this process goes through it: the store and
 * the app's own tables. Kept on globalThis so that modules re-evaluated by Next dev, and Next's
 * separately bundled routes, share it too.
 */
export function sqliteTurns(file: string): Exclusive {
  const registry = globalThis as typeof globalThis & { __stackboneSqliteTurns?: Map<string, Exclusive> };
  const queues = (registry.__stackboneSqliteTurns ??= new Map());
  let queue = queues.get(file);
  if (!queue) queues.set(file, (queue = limitConcurrency(1)));
  return queue;
}
