// `npm run db:migrate` in development (docs/database.md, "Add a table"): when prisma/schema.prisma
// holds changes no migration has, one migration is written for each database, under one name.
//
// Both are `prisma migrate diff --script`, run with no database server:
// - SQLite: from the committed SQLite migrations (replayed into an in-memory shadow database by
//   the JS engine) to prisma/schema.prisma, so its migration is exactly what the history lacks.
// - PostgreSQL: replaying its migrations would need a PostgreSQL shadow database, so the diff goes
//   from MIGRATED_SCHEMA (the generated PostgreSQL schema as of the newest migration, kept beside
//   the migrations and moved on with each one) to the newly generated schema.
// A datamodel-to-datamodel diff reads no database, yet Prisma opens the config's driver adapter
// first (prisma.config.ts picks it by DATABASE_URL): both diffs run with DATABASE_URL on a
// throwaway SQLite file, so no server has to be up and the developer's database is not touched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_SCHEMA, SOURCE_SCHEMA, postgresSchemaFrom, schemaBody, writePostgresSchema } from './postgres-schema.mjs';

const SQLITE_MIGRATIONS = 'prisma/migrations';
const POSTGRES_MIGRATIONS = 'prisma/postgres/migrations';
const MIGRATED_SCHEMA = `${POSTGRES_MIGRATIONS}/migrated.prisma`;

const MIGRATED_HEADER = [
  `// The PostgreSQL schema as of the newest migration in this folder, written by \`npm run db:migrate\``,
  `// (scripts/lib/new-migrations.mjs): the next PostgreSQL migration is the diff from here. Do not edit.`,
];

/** The migrated schema for the current source: what MIGRATED_SCHEMA holds once every change has its migration. */
function migratedSchemaFrom(source) {
  return postgresSchemaFrom(source, MIGRATED_HEADER);
}

function readMigratedSchema(root) {
  if (!existsSync(path.join(root, MIGRATED_SCHEMA))) {
    throw new Error(`${MIGRATED_SCHEMA} is missing: restore it from version control (it is the schema the newest migration left).`);
  }
  return readFileSync(path.join(root, MIGRATED_SCHEMA), 'utf8');
}

/** Whether prisma/schema.prisma has changes MIGRATED_SCHEMA (and so the migrations) lacks: a cheap string check, no Prisma. */
export function hasUnmigratedChanges(root) {
  const source = readFileSync(path.join(root, SOURCE_SCHEMA), 'utf8');
  return schemaBody(readMigratedSchema(root)) !== schemaBody(migratedSchemaFrom(source));
}

/**
 * Why migrations must not be created here, or null. Creating them is a developer's step: a build,
 * CI or a production start (`npm start`, whose prestart applies migrations) only applies what is
 * committed, so what runs in production is what was reviewed.
 */
export function refuseCreatingMigrations(env = process.env) {
  const set = (value) => Boolean(value) && value !== '0' && value !== 'false';
  if (env.NODE_ENV === 'production') return 'NODE_ENV is production';
  if (set(env.VERCEL)) return 'this is a Vercel build (VERCEL is set)';
  if (set(env.CI)) return 'this is CI (CI is set)';
  return null;
}

/** Prisma's folder name rule: lowercase letters, digits and underscores. */
function migrationName(name) {
  const clean = String(name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return clean || 'schema_change';
}

const stamp = (date) => date.toISOString().replace(/\D/g, '').slice(0, 14);

/** YYYYMMDDHHMMSS now, or one second past the newest migration when that is later: folders apply in name order. */
function nextTimestamp(root, now = new Date()) {
  const newest = readdirSync(path.join(root, SQLITE_MIGRATIONS))
    .concat(readdirSync(path.join(root, POSTGRES_MIGRATIONS)))
    .map((entry) => /^(\d{14})_/.exec(entry)?.[1])
    .filter(Boolean)
    .sort()
    .at(-1);
  if (!newest || stamp(now) > newest) return stamp(now);
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(newest).map(Number);
  return stamp(new Date(Date.UTC(y, mo - 1, d, h, mi, s + 1)));
}

/** An SQL script with nothing but comments: the two schemas already agree. */
const isEmpty = (sql) => sql.replace(/^--.*$/gm, '').trim() === '';

function migrateDiff(root, scratch, args) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'prisma'), ['migrate', 'diff', ...args, '--script'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: `file:${path.join(scratch, 'diff.db')}`, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  if (result.status !== 0) throw new Error(`prisma migrate diff ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * Regenerates the PostgreSQL schema, then writes the migrations prisma/schema.prisma needs (both
 * databases, one folder name). Answers that folder's name, or null when nothing needed one.
 */
export function createMigrations(root, name) {
  readMigratedSchema(root);
  writePostgresSchema(root);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'stackbone-diff-'));
  try {
    const sqlite = migrateDiff(root, scratch, ['--from-migrations', SQLITE_MIGRATIONS, '--to-schema-datamodel', SOURCE_SCHEMA]);
    const postgres = migrateDiff(root, scratch, ['--from-schema-datamodel', MIGRATED_SCHEMA, '--to-schema-datamodel', POSTGRES_SCHEMA]);
    let folder = null;
    if (!isEmpty(sqlite) || !isEmpty(postgres)) {
      folder = `${nextTimestamp(root)}_${migrationName(name)}`;
      for (const [migrations, sql] of [
        [SQLITE_MIGRATIONS, sqlite],
        [POSTGRES_MIGRATIONS, postgres],
      ]) {
        const dir = path.join(root, migrations, folder);
        if (existsSync(dir)) throw new Error(`${migrations}/${folder} exists already.`);
        mkdirSync(dir);
        writeFileSync(path.join(dir, 'migration.sql'), sql);
      }
    }
    // Moved on even when no SQL changed (a comment, say), so hasUnmigratedChanges stays quiet.
    writeFileSync(path.join(root, MIGRATED_SCHEMA), migratedSchemaFrom(readFileSync(path.join(root, SOURCE_SCHEMA), 'utf8')));
    return folder;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
