// The store contract on PostgreSQL, in its own schema (never "public", which a dev server
// may be using). No server → the suite is skipped, loudly; REQUIRE_POSTGRES=1 (CI) makes
// that a failure instead.
import { beforeAll, describe, it } from 'vitest';
import { freshPostgresUrl, postgresReachable, testPostgresUrl } from '../../tests/support/database';
import { createPrismaStore } from './prisma-store';
import { describeEventStoreContract } from './store.contract';

const SCHEMA = 'stackbone_store_test';
const server = testPostgresUrl();
const reachable = await postgresReachable(server);

if (reachable) {
  let url: string;
  beforeAll(async () => {
    url = await freshPostgresUrl(SCHEMA, server);
  }, 60_000);
  describeEventStoreContract('postgres', async () => createPrismaStore(url));
} else if (process.env.REQUIRE_POSTGRES) {
  describe('EventStore contract: postgres', () => {
    it('needs a PostgreSQL server (REQUIRE_POSTGRES is set)', () => {
      throw new Error(`No PostgreSQL server answers at ${server}.`);
    });
  });
} else {
  const reason = `no PostgreSQL server answers at ${server} (set TEST_POSTGRES_URL, or REQUIRE_POSTGRES=1 to fail instead)`;
  console.warn(`\n⚠️  SKIPPING the PostgreSQL EventStore contract: ${reason}\n`);
  describe.skip(`EventStore contract: postgres — SKIPPED: ${reason}`, () => {
    it('runs when PostgreSQL is reachable', () => {});
  });
}
