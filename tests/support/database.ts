// Test databases: fresh, migrated with the real migrations (scripts/db.mjs → prisma migrate
// deploy), so tests exercise the schema users get. Shared by unit and integration suites.
//
// A migration run costs a second and a half of CPU, and the suite wants some seventy fresh
// databases: each kind is migrated once per set of migrations (named by their fingerprint), and
// every fresh database is a copy of that one — a file copy for SQLite, a template database for
// PostgreSQL. The copy is the same schema, made by the same migrations.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
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

/**
 * The committed migrations' fingerprint: a hash of every file under both migration folders, so
 * that a copy is never taken of a database an older set of migrations made.
 */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const folder of ['prisma/migrations', 'prisma/postgres/migrations']) {
    const base = path.join(repoRoot, folder);
    if (!existsSync(base)) continue;
    for (const file of readdirSync(base, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort()) {
      hash.update(path.relative(repoRoot, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The SQLite file the migrations made, shared by every test process of this machine. */
let migratedSqlite: Promise<string> | undefined;

function migratedSqliteFile(): Promise<string> {
  migratedSqlite ??= (async () => {
    const file = path.join(os.tmpdir(), `stackbone-migrated-${migrationsFingerprint()}.db`);
    if (existsSync(file)) return file;
    // Made aside and renamed into place: a process never copies a file half migrated, and two
    // that race both migrate and one rename wins (the same schema either way).
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stackbone-migrating-'));
    await migrateDatabase(`file:${path.join(dir, 'stackbone.db')}`);
    await rename(path.join(dir, 'stackbone.db'), file);
    await rm(dir, { recursive: true, force: true });
    return file;
  })();
  return migratedSqlite;
}

/**
 * A new, migrated SQLite file in its own temp directory (the caller removes that directory when
 * done): a copy of the file the committed migrations made (migratedSqliteFile).
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

/** The schema a fresh Postgres database's tables sit in: not "public", so that `?schema=` is what every test server reads, as a user's may. */
const POSTGRES_TEST_SCHEMA = 'stackbone_test';

/** A connection to the database of url, for the statements that make databases and schemas. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** baseUrl with its database swapped for `database` and `?schema=` set. */
function databaseUrl(baseUrl: string, database: string, schema: string): string {
  const url = new URL(parsePostgresUrl(baseUrl).connectionString);
  url.pathname = `/${database}`;
  url.searchParams.set('schema', schema);
  return url.toString();
}

/**
 * The template database the migrations made, on the server of baseUrl: made once per set of
 * migrations and kept (its name holds their fingerprint). Made under an advisory lock, as
 * another database that is renamed into place once migrated, so that no copy is ever taken of a
 * half-made template, and every process that asks at once waits for the one that makes it.
 */
async function migratedPostgresTemplate(baseUrl: string): Promise<string> {
  const template = `stackbone_template_${migrationsFingerprint()}`;
  await withClient(baseUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (rowCount) return;
      const making = `${template}_making`;
      await client.query(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${making}"`);
      await withClient(databaseUrl(baseUrl, making, POSTGRES_TEST_SCHEMA), (made) => made.query(`CREATE SCHEMA "${POSTGRES_TEST_SCHEMA}"`));
      await migrateDatabase(databaseUrl(baseUrl, making, POSTGRES_TEST_SCHEMA));
      await client.query(`ALTER DATABASE "${making}" RENAME TO "${template}"`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
  return template;
}

/**
 * A migrated, empty Postgres database of its own, named name (dropped first if a run before left
 * it), its tables in the `stackbone_test` schema: a copy of the migrated template database.
 * Answers its URL, `?schema=` set. Give each suite its own name; suites sharing one would wipe
 * each other. A role that may not create databases gets a migrated schema of baseUrl's database instead.
 */
export async function freshPostgresUrl(name: string, baseUrl: string = testPostgresUrl()): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name) || name === 'public') {
    throw new Error(`Refusing to recreate database "${name}": use a dedicated lowercase test name.`);
  }
  try {
    const template = await migratedPostgresTemplate(baseUrl);
    await withClient(baseUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    });
    return databaseUrl(baseUrl, name, POSTGRES_TEST_SCHEMA);
  } catch (error) {
    // 42501: insufficient_privilege (no CREATEDB).
    if ((error as { code?: string }).code !== '42501') throw error;
    const url = await emptyPostgresSchema(name, baseUrl);
    await migrateDatabase(url.toString());
    return url.toString();
  }
}
