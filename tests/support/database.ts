// Test databases: fresh, migrated with the real migrations (scripts/db.mjs → prisma migrate
// deploy), so tests exercise the schema users get. Shared by unit and integration suites.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { databaseKind } from '../../server/store/database-url';
import { parsePostgresUrl } from '../../server/store/prisma-client';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The PostgreSQL server tests use: TEST_POSTGRES_URL, or the local one. */
export function testPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
}

/** Applies the committed migrations to the database at url (SQLite file or Postgres, ?schema= honoured). */
export async function migrateDatabase(url: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url };
  const schema = databaseKind(url) === 'postgres' ? parsePostgresUrl(url).schema : undefined;
  // prisma.config.ts hands the schema to the adapter, but the schema engine still creates
  // tables through search_path (i.e. in "public"). pg reads PGOPTIONS for every connection.
  if (schema) env.PGOPTIONS = `${env.PGOPTIONS ?? ''} -c search_path=${schema}`.trim();
  await runMigrate(url, env);
}

/** What `prisma migrate deploy` prints once it has committed everything. */
const MIGRATE_DONE = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * Runs scripts/db.mjs migrate. With Postgres the Prisma CLI lingers ~10 s after it is done
 * (a timer left by its wasm schema engine, plus pg's idle-pool timer), so once it reports
 * success we end it (its process group: db.mjs and the prisma child) instead of waiting.
 */
function runMigrate(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'db.mjs'), 'migrate'], {
      cwd: repoRoot,
      env,
      detached: true, // its own process group, so that the prisma grandchild can be ended too
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (!done && MIGRATE_DONE.test(output)) {
        done = true;
        resolve();
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (done) return;
      if (code === 0) resolve();
      else reject(new Error(`Migrating ${url} failed (exit ${code}):\n${output}`));
    });
  });
}

/** Answers whether a PostgreSQL server accepts connections at url (within 3 seconds). */
export async function postgresReachable(url: string = testPostgresUrl()): Promise<boolean> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new, migrated SQLite file in its own temp directory (the caller removes that directory when done). */
export async function freshSqliteUrl(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stackbone-test-'));
  const url = `file:${path.join(dir, 'stackbone.db')}`;
  await migrateDatabase(url);
  return url;
}

/**
 * A migrated, empty Postgres schema: drops schemaName (and everything in it), recreates it,
 * migrates it. Give each suite its own name; suites sharing one would wipe each other.
 */
export async function freshPostgresUrl(schemaName: string, baseUrl: string = testPostgresUrl()): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schemaName) || schemaName === 'public') {
    throw new Error(`Refusing to recreate schema "${schemaName}": use a dedicated lowercase test schema.`);
  }
  const { connectionString } = parsePostgresUrl(baseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE`);
    await client.query(`CREATE SCHEMA "${schemaName}"`);
  } finally {
    await client.end();
  }
  const url = new URL(connectionString);
  url.searchParams.set('schema', schemaName);
  await migrateDatabase(url.toString());
  return url.toString();
}
