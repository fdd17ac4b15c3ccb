// One real server per database kind, shared by the integration files (SPEC §3: both
// SQLite and PostgreSQL are tested). Postgres is skipped loudly when no server answers.
import type { TestProject } from 'vitest/node';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable, testPostgresUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    servers: { kind: 'sqlite' | 'postgres'; url: string; databaseUrl: string }[];
    postgresSkipped: string | null;
  }
}

export default async function setup(project: TestProject) {
  const servers: TestServer[] = [];
  const described: { kind: 'sqlite' | 'postgres'; url: string; databaseUrl: string }[] = [];

  const sqlite = await startServer({ port: 3201, databaseUrl: await freshSqliteUrl() });
  servers.push(sqlite);
  described.push({ kind: 'sqlite', url: sqlite.url, databaseUrl: sqlite.databaseUrl });

  let postgresSkipped: string | null = null;
  if (await postgresReachable()) {
    const postgres = await startServer({ port: 3202, databaseUrl: await freshPostgresUrl('stackbone_it') });
    servers.push(postgres);
    described.push({ kind: 'postgres', url: postgres.url, databaseUrl: postgres.databaseUrl });
  } else {
    postgresSkipped = `no PostgreSQL server answers at ${testPostgresUrl()}`;
    console.warn(`\n\u001b[33m!!! SKIPPING the PostgreSQL half of the integration suite: ${postgresSkipped}.\u001b[0m\n`);
  }

  project.provide('servers', described);
  project.provide('postgresSkipped', postgresSkipped);
  return async () => {
    await Promise.all(servers.map((server) => server.kill()));
  };
}
