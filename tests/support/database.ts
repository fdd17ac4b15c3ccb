// Test databases: fresh, migrated with the real migrations (scripts/db.mjs → prisma migrate
// deploy), so tests exercise the schema users get. Shared by unit and integration suites.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { parsePostgresUrl } from '../../server/store/prisma-client';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The PostgreSQL server tests use: TEST_POSTGRES_URL, or the local one. */
export function testPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
}

/** Applies the committed migrations to the database at url (SQLite file or Postgres, ?schema= honoured). */
async function migrateDatabase(url: string): Promise<void> {
  try {
    await run(process.execPath, [path.join(repoRoot, 'scripts', 'db.mjs'), 'migrate'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url } });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`Migrating ${url} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
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

/** One SQLite file per test process, migrated once: every fresh database is a copy of it. */
let migratedSqlite: Promise<string> | undefined;

function migratedSqliteFile(): Promise<string> {
  migratedSqlite ??= (async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-migrated-')), 'stackbone.db');
    await migrateDatabase(`file:${file}`);
    return file;
  })();
  return migratedSqlite;
}

/**
 * A new, migrated SQLite file in its own temp directory (the caller removes that directory when
 * done): a copy of a file the committed migrations made once in this process — a migration run
 * costs a second and a half of CPU, a copy a millisecond, and the schema is the same.
 */
export async function freshSqliteUrl(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stackbone-test-'));
  const file = path.join(dir, 'stackbone.db');
  // The migration's process has closed the file, which folds its write-ahead log into it.
  await copyFile(await migratedSqliteFile(), file);
  return `file:${file}`;
}

/**
 * An empty Postgres schema, not migrated: drops schemaName (and everything in it) and recreates
 * it. Answers the base URL with `?schema=` set. Give each suite its own name; suites sharing one
 * would wipe each other.
 */
export async function emptyPostgresSchema(schemaName: string, baseUrl: string = testPostgresUrl()): Promise<URL> {
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
  return url;
}

/** A migrated, empty Postgres schema (emptyPostgresSchema, then the migrations). */
export async function freshPostgresUrl(schemaName: string, baseUrl: string = testPostgresUrl()): Promise<string> {
  const url = await emptyPostgresSchema(schemaName, baseUrl);
  await migrateDatabase(url.toString());
  return url.toString();
}
