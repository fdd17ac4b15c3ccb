#!/usr/bin/env node
// Database chores, so that a user never types a Prisma command:
//   generate  — prisma/postgres/schema.prisma from prisma/schema.prisma (docs/database.md), then
//               both Prisma clients (SQLite and PostgreSQL); run by postinstall
//   migrate   — apply committed migrations to DATABASE_URL (default: SQLite under .data/),
//               through DIRECT_URL when the provider pools connections (docs/deploy.md)
//   deploy    — what a Vercel build runs before `next build`: refuses SQLite on Vercel, then migrate
//   new       — `npm run db:migrate [-- --name add_invoices]` (docs/database.md): in development,
//               when prisma/schema.prisma has changes no migration holds, write one migration per
//               database under one name and regenerate the clients; then migrate. In production,
//               on Vercel or in CI it creates nothing (and stops if the schema needs a migration).
// migrate and deploy never create a migration: predev, prestart and a build only apply committed ones.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { databaseKind, migrationUrl, refuseEphemeralDatabase } from './lib/deploy-database.mjs';
import { createMigrations, hasUnmigratedChanges, refuseCreatingMigrations } from './lib/new-migrations.mjs';
import { writePostgresSchema } from './lib/postgres-schema.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prismaBin = path.join(root, 'node_modules', '.bin', 'prisma');
// prisma.config.ts picks schema and driver adapter from DATABASE_URL; generating a client
// for the other kind needs a URL of that kind (generate never connects to it).
const GENERATE_URLS = { sqlite: 'file:./.data/stackbone.db', postgres: 'postgres://localhost/stackbone' };

function prisma(args, env = {}) {
  const result = spawnSync(prismaBin, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1', ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** What `prisma migrate deploy` prints once everything is committed. */
const MIGRATE_DONE = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * `prisma migrate deploy`. Two quirks of Prisma 6's JS schema engine on Postgres are handled
 * here so that `npm start` behaves: it creates tables through search_path (so a ?schema= in
 * DATABASE_URL is passed as PGOPTIONS), and its process lingers ~10 s after success (a timer
 * it leaves behind), so once it has reported success it is ended instead of waited for.
 */
function migrateDeploy() {
  const url = migrationUrl();
  // prisma.config.ts reads DATABASE_URL: point it at the URL migrations take.
  const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1', ...(url ? { DATABASE_URL: url } : {}) };
  if (databaseKind(url) === 'postgres') {
    const schema = new URL(url).searchParams.get('schema');
    if (schema) env.PGOPTIONS = `${env.PGOPTIONS ?? ''} -c search_path=${schema}`.trim();
  }
  const child = spawn(prismaBin, ['migrate', 'deploy'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let succeeded = false;
  const relay = (target) => (chunk) => {
    target.write(chunk);
    output += chunk;
    if (!succeeded && MIGRATE_DONE.test(output)) {
      succeeded = true;
      setTimeout(() => child.kill('SIGTERM'), 200).unref();
    }
  };
  child.stdout.on('data', relay(process.stdout));
  child.stderr.on('data', relay(process.stderr));
  child.on('exit', (code) => process.exit(succeeded ? 0 : (code ?? 1)));
}

function generate() {
  writePostgresSchema(root);
  for (const url of Object.values(GENERATE_URLS)) prisma(['generate'], { DATABASE_URL: url });
}

/** Whether the source schema has changes no migration holds; unknown (false) when the migrated schema is missing, so a start never fails on it. */
function unmigrated() {
  try {
    return hasUnmigratedChanges(root);
  } catch {
    return false;
  }
}

function migrate() {
  if (unmigrated()) {
    console.warn('prisma/schema.prisma has changes no migration holds yet: run `npm run db:migrate -- --name <what changed>` (docs/database.md).');
  }
  if (databaseKind(migrationUrl()) === 'sqlite') mkdirSync(path.join(root, '.data'), { recursive: true });
  migrateDeploy();
}

const command = process.argv[2];
if (command === 'generate') {
  generate();
} else if (command === 'migrate' || command === 'deploy') {
  const refused = command === 'deploy' ? refuseEphemeralDatabase() : null;
  if (refused) {
    console.error(`\n${refused}\n`);
    process.exit(1);
  }
  migrate();
} else if (command === 'new') {
  // Elsewhere it only applies, as migrate does: the server's "run npm run db:migrate" holds anywhere.
  const refused = refuseCreatingMigrations();
  if (refused && unmigrated()) {
    console.error(`prisma/schema.prisma has changes no migration holds, and migrations are created in development only (${refused}).`);
    process.exit(1);
  }
  if (!refused) {
    const { values } = parseArgs({ args: process.argv.slice(3), options: { name: { type: 'string' } } });
    let folder;
    try {
      folder = createMigrations(root, values.name);
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    console.log(folder ? `Created prisma/migrations/${folder} and prisma/postgres/migrations/${folder}.` : 'No schema changes: no migration needed.');
    generate();
  }
  migrate();
} else {
  console.error('usage: node scripts/db.mjs generate | migrate | deploy | new [--name <migration name>]');
  process.exit(2);
}
