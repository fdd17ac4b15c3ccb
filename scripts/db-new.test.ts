// Adding a table is one edit plus `npm run db:migrate` (docs/database.md, "Add a table"), proven
// on a copy of prisma/ and scripts/: a model added to prisma/schema.prisma gets a migration for
// each database under one name, the PostgreSQL schema is regenerated, and both migrations apply
// to new databases. Client generation is left out (Prisma's own step, and seconds on 2 cores).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePostgresUrl } from '../server/store/prisma-client';
import { postgresReachable, testPostgresUrl } from '../tests/support/database';

interface NewMigrations {
  createMigrations(root: string, name?: string): string | null;
  hasUnmigratedChanges(root: string): boolean;
}
interface PostgresSchema {
  postgresSchemaFrom(source: string): string;
}
// Plain .mjs (scripts run before anything is compiled): imported by URL, typed here.
const lib = (name: string) => import(new URL(`./lib/${name}`, import.meta.url).href);
const { createMigrations, hasUnmigratedChanges } = (await lib('new-migrations.mjs')) as NewMigrations;
const { postgresSchemaFrom } = (await lib('postgres-schema.mjs')) as PostgresSchema;

const repo = fileURLToPath(new URL('..', import.meta.url));
const INVOICE = `
/// An invoice (added by scripts/db-new.test.ts).
model Invoice {
  id     String    @id
  total  Float
  paidAt DateTime?

  @@index([paidAt])
}
`;

/** A copy of what `db.mjs` works on (node_modules linked), with the Invoice model added to the source schema. */
function copyWithInvoice(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stackbone-new-migration-'));
  for (const entry of ['prisma', 'scripts', 'prisma.config.ts', 'package.json']) cpSync(path.join(repo, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'prisma/schema.prisma'), readFileSync(path.join(dir, 'prisma/schema.prisma'), 'utf8') + INVOICE);
  return dir;
}

/** Runs the copy's `db.mjs` with these variables (and no CI, Vercel or production ones). */
function db(dir: string, args: string[], vars: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['CI', 'VERCEL', 'NODE_ENV', 'DATABASE_URL', 'DIRECT_URL', 'DATABASE_URL_UNPOOLED']) delete env[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(dir, 'scripts/db.mjs'), ...args],
      { cwd: dir, env: { ...env, ...vars }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}

const folders = (dir: string, migrations: string) => readdirSync(path.join(dir, migrations)).filter((entry) => /^\d{14}_/.test(entry));
const postgres = await postgresReachable();
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('the committed migrations', () => {
  it('hold every change of prisma/schema.prisma (else: npm run db:migrate)', () => {
    expect(hasUnmigratedChanges(repo), 'prisma/schema.prisma has changes no migration holds: run `npm run db:migrate -- --name <what changed>`').toBe(false);
  });
});

describe('adding a table: one edit, then npm run db:migrate', () => {
  let dir: string;
  let folder: string | null;
  beforeAll(() => {
    dir = copyWithInvoice();
    temp.push(dir);
    expect(hasUnmigratedChanges(dir)).toBe(true);
    folder = createMigrations(dir, 'add invoices');
  }, 60_000);

  it('writes one migration per database under one name, after the newest one', () => {
    expect(folder).toMatch(/^\d{14}_add_invoices$/);
    const sqlite = folders(dir, 'prisma/migrations');
    const postgresFolders = folders(dir, 'prisma/postgres/migrations');
    expect(sqlite.at(-1)).toBe(folder);
    expect(postgresFolders).toEqual(sqlite);
    expect(readFileSync(path.join(dir, 'prisma/migrations', folder!, 'migration.sql'), 'utf8')).toMatch(/CREATE TABLE "Invoice"[^;]*"paidAt" DATETIME/);
    expect(readFileSync(path.join(dir, 'prisma/postgres/migrations', folder!, 'migration.sql'), 'utf8')).toMatch(
      /CREATE TABLE "Invoice"[^;]*"paidAt" TIMESTAMP\(3\)/,
    );
  });

  it('regenerates the PostgreSQL schema, and has nothing left to migrate', () => {
    expect(readFileSync(path.join(dir, 'prisma/postgres/schema.prisma'), 'utf8')).toBe(
      postgresSchemaFrom(readFileSync(path.join(dir, 'prisma/schema.prisma'), 'utf8')),
    );
    expect(readFileSync(path.join(dir, 'prisma/postgres/schema.prisma'), 'utf8')).toContain('model Invoice {');
    expect(hasUnmigratedChanges(dir)).toBe(false);
    expect(createMigrations(dir, 'again')).toBeNull();
  }, 30_000);

  it('applies to a new SQLite file', async () => {
    const file = path.join(dir, 'fresh.db');
    const { code, output } = await db(dir, ['migrate'], { DATABASE_URL: `file:${file}` });
    expect(output).toContain('All migrations have been successfully applied');
    expect(code).toBe(0);
    const sqlite = new Database(file, { readonly: true });
    try {
      expect(sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Invoice'`).all()).toHaveLength(1);
    } finally {
      sqlite.close();
    }
  }, 60_000);

  it.skipIf(!postgres)(
    'applies to a new PostgreSQL database',
    async () => {
      const database = `stackbone_new_migration_${process.pid}`;
      const admin = new pg.Client({ connectionString: parsePostgresUrl(testPostgresUrl()).connectionString });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${database}"`);
        await admin.query(`CREATE DATABASE "${database}"`);
        const url = new URL(parsePostgresUrl(testPostgresUrl()).connectionString);
        url.pathname = `/${database}`;
        const { code, output } = await db(dir, ['migrate'], { DATABASE_URL: url.toString() });
        expect(output).toContain('All migrations have been successfully applied');
        expect(code).toBe(0);
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          const columns = await client.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'Invoice' ORDER BY column_name`);
          expect(columns.rows).toEqual([
            { column_name: 'id', data_type: 'text' },
            { column_name: 'paidAt', data_type: 'timestamp without time zone' },
            { column_name: 'total', data_type: 'double precision' },
          ]);
        } finally {
          await client.end();
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => {});
        await admin.end();
      }
    },
    60_000,
  );
});

describe('npm run db:migrate outside development', () => {
  it('creates no migration in production, and stops when the schema needs one', async () => {
    const dir = copyWithInvoice();
    temp.push(dir);
    const { code, output } = await db(dir, ['new', '--name', 'add_invoices'], { NODE_ENV: 'production' });
    expect(output).toContain('migrations are created in development only (NODE_ENV is production)');
    expect(code).toBe(1);
    expect(folders(dir, 'prisma/migrations')).toEqual(folders(repo, 'prisma/migrations'));
    expect(existsSync(path.join(dir, '.data'))).toBe(false);
  });

  it('and prestart (db.mjs migrate) only warns, never creating one', async () => {
    const dir = copyWithInvoice();
    temp.push(dir);
    const { code, output } = await db(dir, ['migrate'], { DATABASE_URL: `file:${path.join(dir, 'app.db')}`, NODE_ENV: 'production' });
    expect(output).toContain('prisma/schema.prisma has changes no migration holds yet');
    expect(code).toBe(0);
    expect(folders(dir, 'prisma/migrations')).toEqual(folders(repo, 'prisma/migrations'));
  }, 60_000);
});

if (!postgres) {
  console.warn(`!!! The PostgreSQL half of scripts/db-new.test.ts is skipped: no server answers at ${testPostgresUrl()}.`);
  if (process.env.REQUIRE_POSTGRES) {
    it('needs a PostgreSQL server (REQUIRE_POSTGRES is set)', () => {
      expect.fail(`no PostgreSQL server answers at ${testPostgresUrl()}`);
    });
  }
}
