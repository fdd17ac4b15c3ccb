// One real server per database kind, shared by the integration files (both
// SQLite and PostgreSQL are tested: README, "Tests"). Postgres is skipped loudly when no server answers.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable, testPostgresUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

export interface TestBackend {
  kind: 'sqlite' | 'postgres';
  url: string;
  databaseUrl: string;
  /** The fixture ledger agent's side-effect file for this server. */
  ledgerFile: string;
}

/**
 * What every integration server runs with: the fixture agent, short leases, a quick sweep, and
 * room for the load test's 200 runs at once (LOAD_RUNS more), which in open dev mode are all the
 * one local owner's streams (STACKBONE_MAX_STREAMS_PER_OWNER, 32 by default; docs/security.md).
 */
export function fixtureEnv(ledgerFile: string): Record<string, string> {
  return {
    STACKBONE_FIXTURE_AGENTS: '1',
    STACKBONE_LEDGER_FILE: ledgerFile,
    STACKBONE_LEASE_MS: '3000',
    STACKBONE_SWEEP_MS: '300',
    STACKBONE_MAX_STREAMS_PER_OWNER: '100000',
  };
}

/**
 * The files drive the fixture agents, which only a build made with STACKBONE_FIXTURE_AGENTS=1 has
 * (next.config.ts): a product build (`npm run build`) is named once here, not by every file's 404.
 */
async function fixtureAgentsBuilt(server: TestServer): Promise<void> {
  const { agents } = (await (await fetch(`${server.url}/api/agents`)).json()) as { agents: { name: string }[] };
  if (!agents.some((agent) => agent.name === 'ledger')) {
    throw new Error('The Next build has no fixture agents: build with `STACKBONE_FIXTURE_AGENTS=1 npx next build` (npm test does).');
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One pair of servers per worker slot (the first pair is slot 1's): tests/support/backends.ts picks its own. */
    serversByWorker: TestBackend[][];
    postgresSkipped: string | null;
  }
}

/**
 * The integration files run two at a time (vitest.config.ts). Files count the rows of their
 * server's database and time their runs, so the two workers never share a server: each worker
 * slot gets its own SQLite and PostgreSQL server, on that slot's ports (tests/support/server.ts,
 * testPort).
 */
const WORKER_SLOTS = 2;

/**
 * The shared servers run turns with the product's own lease (30 s), not the files' short one: they
 * take the load test's 200 runs at once, and a renewal queued behind that many runs' writes lagged
 * past a 3 s lease on this 2-core machine (one run in 200 was taken over by the server's own
 * sweep). No file kills a shared server; the files that test takeovers start servers of their own.
 */
const sharedEnv = (ledgerFile: string) => ({ ...fixtureEnv(ledgerFile), STACKBONE_LEASE_MS: '30000' });

export default async function setup(project: TestProject) {
  const servers: TestServer[] = [];
  const logs: string[] = [];
  const ledgers = await mkdtemp(path.join(os.tmpdir(), 'stackbone-ledger-'));
  const postgres = await postgresReachable();
  const postgresSkipped = postgres ? null : `no PostgreSQL server answers at ${testPostgresUrl()}`;
  if (postgresSkipped) console.warn(`\n\u001b[33m!!! SKIPPING the PostgreSQL half of the integration suite: ${postgresSkipped}.\u001b[0m\n`);

  const startSlot = async (slot: number): Promise<TestBackend[]> => {
    const described: TestBackend[] = [];
    const sqliteLedger = path.join(ledgers, `sqlite-${slot}.jsonl`);
    const sqlite = await startServer({ port: 3201, slot, databaseUrl: await freshSqliteUrl(), env: sharedEnv(sqliteLedger) });
    servers.push(sqlite);
    logs.push(`server-sqlite-${slot}.log`);
    await fixtureAgentsBuilt(sqlite);
    described.push({ kind: 'sqlite', url: sqlite.url, databaseUrl: sqlite.databaseUrl, ledgerFile: sqliteLedger });
    if (postgres) {
      const postgresLedger = path.join(ledgers, `postgres-${slot}.jsonl`);
      const server = await startServer({
        port: 3202,
        slot,
        databaseUrl: await freshPostgresUrl(`stackbone_it_${slot}`),
        env: sharedEnv(postgresLedger),
      });
      servers.push(server);
      logs.push(`server-postgres-${slot}.log`);
      described.push({ kind: 'postgres', url: server.url, databaseUrl: server.databaseUrl, ledgerFile: postgresLedger });
    }
    return described;
  };

  let serversByWorker: TestBackend[][];
  try {
    serversByWorker = await Promise.all(Array.from({ length: WORKER_SLOTS }, (_, index) => startSlot(index + 1)));
  } catch (error) {
    await Promise.all(servers.map((server) => server.kill()));
    throw error;
  }
  project.provide('serversByWorker', serversByWorker);
  project.provide('postgresSkipped', postgresSkipped);
  return async () => {
    await Promise.all(servers.map((server) => server.kill()));
    // What the servers printed, for when a test fails on something only the server saw.
    await mkdir('test-results', { recursive: true });
    await Promise.all(servers.map((server, index) => writeFile(path.join('test-results', logs[index]!), server.output())));
  };
}
