// `node scripts/db.mjs deploy`, the step a Vercel build runs before `next build`
// (package.json "vercel-build", docs/deploy.md), run as a child process exactly as the build
// runs it: on Vercel it refuses SQLite with a message saying why and what to do; it migrates
// PostgreSQL through DIRECT_URL when set (a pooler cannot hold the migration lock); off Vercel
// it is the ordinary migrate.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePostgresUrl } from '../server/store/prisma-client';
import { emptyPostgresSchema, postgresReachable, testPostgresUrl } from '../tests/support/database';

const root = fileURLToPath(new URL('..', import.meta.url));
const DB_SCRIPT = path.join(root, 'scripts', 'db.mjs');

/** Runs `db.mjs deploy` with only these database variables set; answers its exit code and output. */
function deploy(vars: Record<string, string>): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['VERCEL', 'DATABASE_URL', 'DIRECT_URL', 'DATABASE_URL_UNPOOLED']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [DB_SCRIPT, 'deploy'], { cwd: root, env: { ...env, ...vars }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

const temp: string[] = [];
afterAll(async () => {
  await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempSqliteUrl(): Promise<{ url: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stackbone-deploy-'));
  temp.push(dir);
  const file = path.join(dir, 'stackbone.db');
  return { url: `file:${file}`, file };
}

describe('the Vercel build step (db.mjs deploy)', () => {
  it('refuses a Vercel build without DATABASE_URL: the app would fall back to a SQLite file, which Vercel does not keep', async () => {
    const { code, output } = await deploy({ VERCEL: '1' });
    expect(code).toBe(1);
    expect(output).toContain('Stackbone refuses to build on Vercel with SQLite: DATABASE_URL is not set');
    expect(output).toContain("Vercel's file system is not durable");
    expect(output).toContain('set DATABASE_URL to its postgres:// URL');
    expect(output).toContain('docs/deploy.md');
  });

  it('refuses a Vercel build whose DATABASE_URL is a SQLite file, and creates nothing', async () => {
    const { url, file } = await tempSqliteUrl();
    const { code, output } = await deploy({ VERCEL: '1', DATABASE_URL: url });
    expect(code).toBe(1);
    expect(output).toContain(`DATABASE_URL is a SQLite file (${url})`);
    expect(existsSync(file)).toBe(false);
  });

  it('off Vercel it migrates a SQLite file as npm start does (a Docker host with a volume may keep one)', async () => {
    const { url, file } = await tempSqliteUrl();
    const { code, output } = await deploy({ DATABASE_URL: url });
    expect(output).toMatch(/All migrations have been successfully applied|No pending migrations/);
    expect(code).toBe(0);
    expect(existsSync(file)).toBe(true);
  }, 60_000);
});

const reachable = await postgresReachable();
const SCHEMA = 'stackbone_deploy_test';

describe.runIf(reachable)('the Vercel build step on PostgreSQL', () => {
  it('migrates through DIRECT_URL when DATABASE_URL is a pooler (here: a port where nothing listens)', async () => {
    const direct = await emptyPostgresSchema(SCHEMA);
    const admin = new pg.Client({ connectionString: parsePostgresUrl(testPostgresUrl()).connectionString });
    await admin.connect();
    try {
      const pooled = new URL(direct);
      pooled.port = '1';
      const { code, output } = await deploy({ VERCEL: '1', DATABASE_URL: pooled.toString(), DIRECT_URL: direct.toString() });
      expect(output).toContain('All migrations have been successfully applied');
      expect(code).toBe(0);
      const tables = await admin.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [SCHEMA]);
      expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['Session', 'Event', 'Interrupt', 'Timer', '_prisma_migrations']));
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
      await admin.end();
    }
  }, 60_000);
});

if (!reachable) {
  console.warn(`!!! The PostgreSQL half of scripts/db.test.ts is skipped: no server answers at ${testPostgresUrl()}.`);
  if (process.env.REQUIRE_POSTGRES) {
    it('needs a PostgreSQL server (REQUIRE_POSTGRES is set)', () => {
      expect.fail(`no PostgreSQL server answers at ${testPostgresUrl()}`);
    });
  }
}
