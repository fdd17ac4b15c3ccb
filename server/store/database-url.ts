// Which database the process talks to. Same rule as prisma.config.ts and scripts/db.mjs:
// a postgres:// URL selects PostgreSQL, anything else is a SQLite file.
import path from 'node:path';
import { setting, type Env } from '../config';

export type DatabaseKind = 'sqlite' | 'postgres';

/** DATABASE_URL, or the embedded default: an absolute SQLite file under <cwd>/.data/. */
export function databaseUrl(): string {
  const configured = setting('DATABASE_URL');
  if (configured) return configured;
  return `file:${path.join(process.cwd(), '.data', 'stackbone.db')}`;
}

/**
 * The unpooled URL of the same database, when DATABASE_URL goes through a pooler in transaction
 * mode (Neon's -pooler host, Supabase's port 6543, PgBouncer): DIRECT_URL, or
 * DATABASE_URL_UNPOOLED as Neon's Vercel integration names it. A session-level command —
 * LISTEN, the migration lock — needs it (docs/deploy.md, "Connections").
 */
export function directDatabaseUrl(env?: Env): string | undefined {
  return setting('DIRECT_URL', env) ?? setting('DATABASE_URL_UNPOOLED', env);
}

export function databaseKind(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

/**
 * The file behind a SQLite URL, absolute. Relative paths resolve against the working
 * directory, like the Prisma CLI (which runs from the repository root) does.
 */
export function sqliteFilePath(url: string): string {
  const file = url.replace(/^file:/, '').replace(/\?.*$/, '');
  return file === ':memory:' ? file : path.resolve(file);
}
