// Reads a test database directly (not through the app), to assert what was written.
import Database from 'better-sqlite3';
import pg from 'pg';
import { databaseKind } from '../../server/store/database-url';
import type { SessionEvent } from '../../server/store/events';
import { parsePostgresUrl } from '../../server/store/prisma-client';
import { scopedSessionId, sessionKeyOf } from '../../server/runtime/session/session-id';

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

/**
 * The stored ids of the session a client names `threadId`: the store keeps `<owner id>/<key>`
 * (server/runtime/session/session-id.ts). With `ownerId`, that owner's, if it has one; without,
 * whichever owners have one by that key (tests use fresh keys, so there is at most one unless a test makes two).
 */
async function storedSessionIds(databaseUrl: string, threadId: string, ownerId?: string): Promise<string[]> {
  if (ownerId !== undefined)
    return (await query<{ id: string }>(databaseUrl, 'SELECT id FROM "Session" WHERE id = $1', [scopedSessionId(ownerId, threadId)])).map((row) => row.id);
  const rows = await query<{ id: string }>(databaseUrl, 'SELECT id FROM "Session"');
  return rows.map((row) => row.id).filter((id) => sessionKeyOf(id) === threadId);
}

/** The one stored id of `threadId`; a key two owners use must name its owner. */
async function storedSessionId(databaseUrl: string, threadId: string, ownerId?: string): Promise<string | undefined> {
  const ids = await storedSessionIds(databaseUrl, threadId, ownerId);
  if (ids.length > 1) throw new Error(`Two owners have a session "${threadId}" (${ids.join(', ')}): name the owner.`);
  return ids[0];
}

/** Rows in the whole database, or of the sessions named `threadId` (by any owner, or by `ownerId`). */
export async function countRows(databaseUrl: string, threadId?: string, ownerId?: string): Promise<RowCounts> {
  if (threadId === undefined) {
    const count = async (table: string) => Number((await query<{ n: number | string }>(databaseUrl, `SELECT COUNT(*) AS n FROM "${table}"`))[0]!.n);
    return { sessions: await count('Session'), events: await count('Event') };
  }
  const ids = await storedSessionIds(databaseUrl, threadId, ownerId);
  let events = 0;
  for (const id of ids)
    events += Number((await query<{ n: number | string }>(databaseUrl, 'SELECT COUNT(*) AS n FROM "Event" WHERE "sessionId" = $1', [id]))[0]!.n);
  return { sessions: ids.length, events };
}

/** The session's events straight from the database, in order. */
export async function readSessionEvents(databaseUrl: string, threadId: string, ownerId?: string): Promise<SessionEvent[]> {
  return (await readSessionLog(databaseUrl, threadId, ownerId)).map((logged) => logged.event);
}

/** Whether each of the session's timers has fired (its messages are in the session), by key. */
export async function readTimers(databaseUrl: string, threadId: string, ownerId?: string): Promise<{ key: string; fired: boolean }[]> {
  const sessionId = await storedSessionId(databaseUrl, threadId, ownerId);
  if (!sessionId) return [];
  const rows = await query<{ key: string; firedAt: unknown }>(databaseUrl, 'SELECT key, "firedAt" FROM "Timer" WHERE "sessionId" = $1 ORDER BY "createdAt"', [
    sessionId,
  ]);
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
export async function readSessionLog(databaseUrl: string, threadId: string, ownerId?: string): Promise<LoggedEvent[]> {
  const sessionId = await storedSessionId(databaseUrl, threadId, ownerId);
  if (!sessionId) return [];
  const rows = await query<{ seq: number | string; data: string }>(databaseUrl, 'SELECT seq, data FROM "Event" WHERE "sessionId" = $1 ORDER BY seq', [
    sessionId,
  ]);
  return rows.map((row) => ({ seq: Number(row.seq), event: JSON.parse(row.data) as SessionEvent }));
}

/**
 * Everything the store keeps of a session, in the log and beside it (docs/turn-control.md): the
 * session row (without its lease and update time, which a running turn renews), its events, its
 * interrupts, stops, steers, queued messages and timers — to compare before and after something
 * that must not touch it. Empty arrays and no session when the owner has none by that key.
 */
export async function readSessionRows(databaseUrl: string, threadId: string, ownerId: string) {
  const id = scopedSessionId(ownerId, threadId);
  const rows = <Row>(sql: string) => query<Row>(databaseUrl, sql, [id]);
  const [session, events, interrupts, stops, steers, queue, timers] = await Promise.all([
    rows('SELECT id, "ownerId", agent, title, "headSeq", status FROM "Session" WHERE id = $1'),
    rows('SELECT seq, data FROM "Event" WHERE "sessionId" = $1 ORDER BY seq'),
    rows('SELECT id, status, "decidedAt" FROM "Interrupt" WHERE "sessionId" = $1 ORDER BY id'),
    rows('SELECT "runId", frontier, "by" FROM "RunStop" WHERE "sessionId" = $1 ORDER BY "runId"'),
    rows('SELECT "runId", message FROM "RunSteer" WHERE "sessionId" = $1 ORDER BY id'),
    rows('SELECT "messageId", message, "runId", position, "sendNow" FROM "QueuedMessage" WHERE "sessionId" = $1 ORDER BY position'),
    rows('SELECT key, "fireAt", "firedAt", messages FROM "Timer" WHERE "sessionId" = $1 ORDER BY key'),
  ]);
  // Numbers and dates as text: the drivers give bigint/number and Date/number differently.
  return JSON.parse(
    JSON.stringify({ session: session[0] ?? null, events, interrupts, stops, steers, queue, timers }, (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    ),
  ) as Record<string, unknown>;
}

/** The ids of every undecided interrupt in the database (the Interrupt projection), to compare a listing with. */
export async function pendingInterruptIds(databaseUrl: string): Promise<string[]> {
  return (await query<{ id: string }>(databaseUrl, `SELECT id FROM "Interrupt" WHERE status = 'pending'`)).map((row) => row.id);
}

export interface AttachmentRow {
  id: string;
  ownerId: string;
  size: number;
  claimed: boolean;
  swept: boolean;
}

/** The Attachment table's rows (docs/models.md, "Attachments"): all, or those of `ids`. */
export async function readAttachmentRows(databaseUrl: string, ids?: string[]): Promise<AttachmentRow[]> {
  const rows = await query<{ id: string; ownerId: string; size: number | string; claimedAt: unknown; sweptAt: unknown }>(
    databaseUrl,
    'SELECT id, "ownerId", size, "claimedAt", "sweptAt" FROM "Attachment" ORDER BY "createdAt", id',
  );
  return rows
    .filter((row) => !ids || ids.includes(row.id))
    .map((row) => ({ id: row.id, ownerId: row.ownerId, size: Number(row.size), claimed: row.claimedAt !== null, swept: row.sweptAt !== null }));
}
