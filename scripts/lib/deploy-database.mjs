// Which database a build or a start migrates, and whether the host can keep it
// (docs/deploy.md). Plain JavaScript: scripts/db.mjs runs before anything is compiled.

/** The same rule as server/store/database-url.ts: a postgres:// URL is PostgreSQL, anything else a SQLite file. */
export function databaseKind(url) {
  return url && /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite';
}

/**
 * The URL migrations run on: DIRECT_URL when set (Neon's Vercel integration names it
 * DATABASE_URL_UNPOOLED), else DATABASE_URL. A pooler in transaction mode (PgBouncer,
 * Supavisor, Neon's -pooler host) cannot hold the session-level lock `prisma migrate deploy`
 * takes, so migrations go around it. The server's LISTEN connection takes the same unpooled URL
 * (server/store/database-url.ts, directDatabaseUrl): keep the two rules alike.
 */
export function migrationUrl(env = process.env) {
  return env.DIRECT_URL?.trim() || env.DATABASE_URL_UNPOOLED?.trim() || env.DATABASE_URL?.trim() || undefined;
}

/**
 * Why this build must not go on, or null. Vercel sets VERCEL=1 in its builds and functions; its
 * file system is per instance and thrown away, so a SQLite file there would lose every session.
 */
export function refuseEphemeralDatabase(env = process.env) {
  if (!env.VERCEL) return null;
  const url = env.DATABASE_URL?.trim();
  if (databaseKind(url) === 'postgres') return null;
  const what = url ? `DATABASE_URL is a SQLite file (${url})` : 'DATABASE_URL is not set, so the app would use a SQLite file';
  return [
    `Stackbone refuses to build on Vercel with SQLite: ${what}.`,
    "Vercel's file system is not durable: each function instance has its own copy and it is thrown away, so every session would be lost.",
    'Create a PostgreSQL database (Neon, Supabase, Prisma Postgres or one from the Vercel Marketplace), set DATABASE_URL to its postgres:// URL',
    '(and DIRECT_URL to its unpooled URL when DATABASE_URL goes through a pooler) in Project Settings → Environment Variables, and redeploy.',
    'Step by step: docs/deploy.md.',
  ].join('\n');
}
