// The database (docs/deploy.md): which one, and how a pooled one is reached.
import { group } from './group';
import { text } from './variable';

export const database = group('Database. Default: a SQLite file under .data/ (created and migrated by npm run dev/start).', {
  DATABASE_URL: text({
    description:
      'A postgres:// URL switches to PostgreSQL (the Vercel path); ?schema=name picks a schema. Unset: .data/stackbone.db under the working directory.',
    example: 'file:./.data/stackbone.db',
  }),
  DIRECT_URL: text({
    description:
      "The unpooled URL of the same database, when DATABASE_URL goes through a pooler in transaction mode (Neon's -pooler host, Supabase's port 6543, PgBouncer): migrations and the LISTEN connection that carries live streams across instances use it. Pool size per process: connection_limit=n in DATABASE_URL (default 5 on Vercel, 10 elsewhere). See docs/deploy.md.",
  }),
  DATABASE_URL_UNPOOLED: text({ description: "DIRECT_URL as Neon's Vercel integration names it; read when DIRECT_URL is unset." }),
});
