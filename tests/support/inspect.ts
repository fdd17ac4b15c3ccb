// Reads a test database directly (not through the app), to assert what was written.
import Database from 'better-sqlite3';
import pg from 'pg';
import { databaseKind } from '../../server/store/database-url';
import type { SessionEvent } from '../../server/runtime/events';
import { parsePostgresUrl } from '../../server/store/prisma-client';

export interface RowCounts {
  sessions: number;
  events: number;
}

export async function countRows(databaseUrl: string, sessionId?: string): Promise<RowCounts> {
  const where = sessionId ? ' WHERE "sessionId" = $1' : '';
  const sessionWhere = sessionId ? ' WHERE "id" = $1' : '';
  const params = sessionId ? [sessionId] : [];
  if (databaseKind(databaseUrl) === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { readonly: true });
    try {
      const sqlite = (sql: string) => (db.prepare(sql.replaceAll('$1', '?')).get(...params) as { n: number }).n;
      return { sessions: sqlite(`SELECT COUNT(*) AS n FROM "Session"${sessionWhere}`), events: sqlite(`SELECT COUNT(*) AS n FROM "Event"${where}`) };
    } finally {
      db.close();
    }
  }
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO "${schema}"`);
    const count = async (sql: string) => Number((await client.query(sql, params)).rows[0].n);
    return { sessions: await count(`SELECT COUNT(*) AS n FROM "Session"${sessionWhere}`), events: await count(`SELECT COUNT(*) AS n FROM "Event"${where}`) };
  } finally {
    await client.end();
  }
}

/** The session's events straight from the database, in order. */
export async function readSessionEvents(databaseUrl: string, sessionId: string): Promise<SessionEvent[]> {
  if (databaseKind(databaseUrl) === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { readonly: true });
    try {
      const rows = db.prepare('SELECT data FROM "Event" WHERE "sessionId" = ? ORDER BY seq').all(sessionId) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as SessionEvent);
    } finally {
      db.close();
    }
  }
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO "${schema}"`);
    const { rows } = await client.query('SELECT data FROM "Event" WHERE "sessionId" = $1 ORDER BY seq', [sessionId]);
    return rows.map((row: { data: string }) => JSON.parse(row.data) as SessionEvent);
  } finally {
    await client.end();
  }
}

/** Polls until check() returns a value (not undefined/false), or fails after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
