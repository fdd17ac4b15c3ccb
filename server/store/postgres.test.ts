// The store's conformance suite on PostgreSQL, in its own schema (never "public", which a dev server
// may be using). No server → the suite is skipped, loudly; REQUIRE_POSTGRES=1 (CI) makes
// that a failure instead.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, postgresReachable, testPostgresUrl } from '../../tests/support/database';
import { parsePostgresUrl } from './prisma-client';
import { createPostgresListener, SESSION_CHANNEL } from './postgres-listener';
import { createPrismaStore } from './prisma-store';
import { createWatchHub } from './session-watch';
import { counter, sleep, waitFor } from './conformance/support';
import { describeEventStoreConformance } from './store.conformance';

const SCHEMA = 'stackbone_store_test';
const server = testPostgresUrl();
const reachable = await postgresReachable(server);

if (reachable) {
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresUrl(SCHEMA, server);
  }, 60_000);
  describeEventStoreConformance('postgres', async () => createPrismaStore(url));

  describe('the LISTEN connection', () => {
    it('hears any connection, skips the echoes it awaits, and after losing its connection reconnects and calls every watcher once', async () => {
      const applicationName = `stackbone-listen-test-${randomUUID().slice(0, 8)}`;
      const hub = createWatchHub();
      const [a, b] = [counter(), counter()];
      const sessionA = `a-${randomUUID()}`;
      const sessionB = `b-${randomUUID()}`;
      hub.add(sessionA, a.listener);
      hub.add(sessionB, b.listener);
      const listener = createPostgresListener(url, hub, { applicationName });
      // Plays another process: a plain connection that knows nothing of stores.
      const other = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
      await other.connect();
      const notify = (sessionId: string) => other.query(`SELECT pg_notify('${SESSION_CHANNEL}', $1)`, [sessionId]);
      try {
        listener.start();
        // Coming up, it calls everyone once: changes before LISTEN took effect were not heard.
        await waitFor(() => a.calls === 1 && b.calls === 1, 'the first resync');

        await notify(sessionA);
        await waitFor(() => a.calls === 2, 'a NOTIFY from another connection');
        expect(b.calls).toBe(1);

        // An awaited echo (pid + session) is skipped once; the next one from there is heard.
        const { rows } = await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        listener.awaitEcho(rows[0].pid, sessionB);
        await notify(sessionB);
        await notify(sessionB);
        await waitFor(() => b.calls === 2, 'the NOTIFY after the awaited echo');
        await sleep(200);
        expect(b.calls).toBe(2);
        // A write that did not commit releases its echo: nothing of the sender is skipped.
        listener.awaitEcho(rows[0].pid, sessionA)();
        await notify(sessionA);
        await waitFor(() => a.calls === 3, 'a NOTIFY after a released echo');

        const killed = await other.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
        expect(killed.rowCount).toBe(1);
        await waitFor(() => a.calls === 4 && b.calls === 3, 'the resync after reconnecting', 10_000);
        await notify(sessionA);
        await waitFor(() => a.calls === 5, 'a NOTIFY on the new connection');
      } finally {
        await listener.close();
      }
      try {
        const left = await other.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
        expect(left.rowCount).toBe(0);
        await notify(sessionA);
        await sleep(200);
        expect(a.calls).toBe(5);
      } finally {
        await other.end();
      }
    }, 30_000);
  });
} else if (process.env.REQUIRE_POSTGRES) {
  describe('EventStore conformance: postgres', () => {
    it('needs a PostgreSQL server (REQUIRE_POSTGRES is set)', () => {
      throw new Error(`No PostgreSQL server answers at ${server}.`);
    });
  });
} else {
  const reason = `no PostgreSQL server answers at ${server} (set TEST_POSTGRES_URL, or REQUIRE_POSTGRES=1 to fail instead)`;
  console.warn(`\n⚠️  SKIPPING the PostgreSQL EventStore conformance: ${reason}\n`);
  describe.skip(`EventStore conformance: postgres — SKIPPED: ${reason}`, () => {
    it('runs when PostgreSQL is reachable', () => {});
  });
}
