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
    servers: TestBackend[];
    postgresSkipped: string | null;
  }
}

export default async function setup(project: TestProject) {
  const servers: TestServer[] = [];
  const described: TestBackend[] = [];
  const ledgers = await mkdtemp(path.join(os.tmpdir(), 'stackbone-ledger-'));

  const sqliteLedger = path.join(ledgers, 'sqlite.jsonl');
  const sqlite = await startServer({ port: 3201, databaseUrl: await freshSqliteUrl(), env: fixtureEnv(sqliteLedger) });
  servers.push(sqlite);
  await fixtureAgentsBuilt(sqlite).catch(async (error: unknown) => {
    await sqlite.kill();
    throw error;
  });
  described.push({ kind: 'sqlite', url: sqlite.url, databaseUrl: sqlite.databaseUrl, ledgerFile: sqliteLedger });

  let postgresSkipped: string | null = null;
  if (await postgresReachable()) {
    const postgresLedger = path.join(ledgers, 'postgres.jsonl');
    const postgres = await startServer({ port: 3202, databaseUrl: await freshPostgresUrl('stackbone_it'), env: fixtureEnv(postgresLedger) });
    servers.push(postgres);
    described.push({ kind: 'postgres', url: postgres.url, databaseUrl: postgres.databaseUrl, ledgerFile: postgresLedger });
  } else {
    postgresSkipped = `no PostgreSQL server answers at ${testPostgresUrl()}`;
    console.warn(`\n\u001b[33m!!! SKIPPING the PostgreSQL half of the integration suite: ${postgresSkipped}.\u001b[0m\n`);
  }

  project.provide('servers', described);
  project.provide('postgresSkipped', postgresSkipped);
  return async () => {
    await Promise.all(servers.map((server) => server.kill()));
    // What the servers printed, for when a test fails on something only the server saw.
    await mkdir('test-results', { recursive: true });
    await Promise.all(servers.map((server, index) => writeFile(path.join('test-results', `server-${described[index]!.kind}.log`), server.output())));
  };
}
