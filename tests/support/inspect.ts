// Reads a test database directly (not through the app), to assert what was written.
import Database from 'better-sqlite3';
import pg from 'pg';
import { databaseKind } from '../../server/store/database-url';
import type { SessionEvent } from '../../server/events';
import { parsePostgresUrl } from '../../server/store/prisma-client';

export interface RowCounts {
  sessions: number;
  events: number;
}

/** Runs one read-only query on a test database; $1, $2 … are parameters on both kinds. */
async function query<Row>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (databaseKind(databaseUrl) === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { readonly: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as Row[];
    } finally {
      db.close();
    }
  }
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO "${schema}"`);
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

export async function countRows(databaseUrl: string, sessionId?: string): Promise<RowCounts> {
  const params = sessionId ? [sessionId] : [];
  const count = async (table: string, column: string) =>
    Number((await query<{ n: number | string }>(databaseUrl, `SELECT COUNT(*) AS n FROM "${table}"${sessionId ? ` WHERE "${column}" = $1` : ''}`, params))[0]!.n);
  return { sessions: await count('Session', 'id'), events: await count('Event', 'sessionId') };
}

/** The session's events straight from the database, in order. */
export async function readSessionEvents(databaseUrl: string, sessionId: string): Promise<SessionEvent[]> {
  const rows = await query<{ data: string }>(databaseUrl, 'SELECT data FROM "Event" WHERE "sessionId" = $1 ORDER BY seq', [sessionId]);
  return rows.map((row) => JSON.parse(row.data) as SessionEvent);
}

/** Whether each of the session's timers has fired (its messages are in the session), by key. */
export async function readTimers(databaseUrl: string, sessionId: string): Promise<{ key: string; fired: boolean }[]> {
  const rows = await query<{ key: string; firedAt: unknown }>(databaseUrl, 'SELECT key, "firedAt" FROM "Timer" WHERE "sessionId" = $1 ORDER BY "createdAt"', [sessionId]);
  return rows.map((row) => ({ key: row.key, fired: row.firedAt !== null }));
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

export interface LoggedEvent {
  seq: number;
  event: SessionEvent;
}

/** The session's events with their seq, straight from the database, in order. */
export async function readSessionLog(databaseUrl: string, sessionId: string): Promise<LoggedEvent[]> {
  const rows = await query<{ seq: number | string; data: string }>(databaseUrl, 'SELECT seq, data FROM "Event" WHERE "sessionId" = $1 ORDER BY seq', [sessionId]);
  return rows.map((row) => ({ seq: Number(row.seq), event: JSON.parse(row.data) as SessionEvent }));
}
