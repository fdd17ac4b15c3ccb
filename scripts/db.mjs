#!/usr/bin/env node
// Database chores, so that a user never types a Prisma command:
//   generate  — both Prisma clients (SQLite and PostgreSQL); run by postinstall
//   migrate   — apply committed migrations to DATABASE_URL (default: SQLite under .data/)
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prismaBin = path.join(root, 'node_modules', '.bin', 'prisma');
// prisma.config.ts picks schema and driver adapter from DATABASE_URL; generating a client
// for the other kind needs a URL of that kind (generate never connects to it).
const GENERATE_URLS = { sqlite: 'file:./.data/stackbone.db', postgres: 'postgres://localhost/stackbone' };

export function databaseKind(url = process.env.DATABASE_URL) {
  return url && /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

function prisma(args, env = {}) {
  const result = spawnSync(prismaBin, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1', ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const command = process.argv[2];
if (command === 'generate') {
  for (const url of Object.values(GENERATE_URLS)) prisma(['generate'], { DATABASE_URL: url });
} else if (command === 'migrate') {
  if (databaseKind() === 'sqlite') mkdirSync(path.join(root, '.data'), { recursive: true });
  prisma(['migrate', 'deploy']);
} else {
  console.error('usage: node scripts/db.mjs generate|migrate');
  process.exit(2);
}
