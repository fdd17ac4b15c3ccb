// Many sessions at once for the view-cache measurement: copies of one real session (its Session
// row and its Event rows), written by one INSERT … SELECT per table, so that 10,000 sessions take a
// second rather than 10,000 turns. Each copy folds to the same view as the original, which is what a
// server touching it has to keep. Sessions are stored under their owner (`<owner>/<key>`,
// server/runtime/session/session-id.ts): the copies are the same owner's, keys `<prefix><n>`.
import Database from 'better-sqlite3';
import pg from 'pg';
import { parsePostgresUrl } from '../../server/store/prisma-client';
import { scopedSessionId } from '../../server/runtime';
import { LOCAL_OWNER } from '../../server/identity/owner';
import type { BenchDatabase } from './servers';

const TABLES = [
  { table: 'Session', key: 'id' },
  { table: 'Event', key: 'sessionId' },
] as const;

type Param = 'prefix' | 'count' | 'template';

function cloneSql(table: string, key: string, columns: string[], param: (name: Param) => string): string {
  const select = columns.map((column) => (column === key ? `(${param('prefix')} || CAST(n.i AS TEXT))` : `t."${column}"`));
  return (
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${param('count')}) ` +
    `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}" t, n WHERE t."${key}" = ${param('template')}`
  );
}

/**
 * Writes `count` copies of the thread `templateKey` of open dev mode's one owner (the bench's
 * servers run open), keys `${prefix}1` … `${prefix}${count}`.
 */
export async function cloneSessions(database: BenchDatabase, templateKey: string, keyPrefix: string, count: number): Promise<void> {
  const templateId = scopedSessionId(LOCAL_OWNER, templateKey);
  const prefix = scopedSessionId(LOCAL_OWNER, keyPrefix);
  if (database.kind === 'sqlite') {
    const db = new Database(database.url.replace(/^file:/, ''), { timeout: 10_000 });
    try {
      db.transaction(() => {
        for (const { table, key } of TABLES) {
          const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((column) => column.name);
          db.prepare(cloneSql(table, key, columns, (name) => `@${name}`)).run({ prefix, count, template: templateId });
        }
      })();
    } finally {
      db.close();
    }
    return;
  }
  const { connectionString, schema = 'public' } = parsePostgresUrl(database.url);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    await client.query('BEGIN');
    for (const { table, key } of TABLES) {
      const columns = (
        await client.query<{ column_name: string }>(
          'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
          [schema, table],
        )
      ).rows.map((row) => row.column_name);
      const param = (name: Param) => (name === 'prefix' ? 'CAST($1 AS TEXT)' : name === 'count' ? 'CAST($2 AS INTEGER)' : 'CAST($3 AS TEXT)');
      await client.query(cloneSql(table, key, columns, param), [prefix, count, templateId]);
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
