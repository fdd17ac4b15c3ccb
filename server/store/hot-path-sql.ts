// The store's hot path — the reads and the append every turn makes — as SQL of its own, sent
// through Prisma's raw queries. The ORM compiles every model query before sending it, about
// 0.7–0.9 ms a call on these machines against 0.2–0.5 ms for the same statement raw, and a turn
// makes a dozen such calls, one at a time on SQLite (docs/benchmarks.md, "Where the time went").
// The statements are plain SQL both databases accept; the tables are the ones prisma/ declares.
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { ChatMessage, InterruptRecord, SessionEvent, StoredEvent } from '../events';
import type { AppendOptions, InterruptRow, QueuedMessage, SessionRecord, SessionStatus, SteerRecord, StopRecord } from './types';

export interface HotPathSql {
  session(id: string): Sql;
  events(sessionId: string, afterSeq: number): Sql;
  stop(sessionId: string, runId: string): Sql;
  steers(sessionId: string, runId: string): Sql;
  queue(sessionId: string): Sql;
  interrupt(id: string): Sql;
  /** The compare-and-set on the head: one row updated, or the head moved. */
  claim(sessionId: string, expectedSeq: number, headSeq: number, now: Date, options: AppendOptions): Sql;
  createSession(sessionId: string, create: NonNullable<AppendOptions['create']>, headSeq: number, now: Date, options: AppendOptions): Sql;
  insertEvents(sessionId: string, firstSeq: number, events: SessionEvent[], now: Date): Sql;
  /** The Interrupt projection's new rows, owned as their session is. */
  openInterrupts(sessionId: string, records: InterruptRecord[], now: Date): Sql;
  decideInterrupts(ids: string[], now: Date): Sql;
}

/** `schema`: the PostgreSQL schema of `?schema=` (Prisma qualifies its own queries with it; raw ones must too). */
export function hotPathSql(schema?: string): HotPathSql {
  const table = (name: string) => raw(schema ? `${quote(schema)}.${quote(name)}` : quote(name));
  const Session = table('Session');
  const Event = table('Event');
  const Interrupt = table('Interrupt');

  /** The status, lease and title an append sets; absent ones stay as they are. */
  const sessionColumns = (options: AppendOptions): Sql[] => [
    ...(options.status !== undefined ? [sql`"status" = ${options.status}`] : []),
    ...(options.leaseUntil !== undefined ? [sql`"leaseUntil" = ${options.leaseUntil}`] : []),
    ...(options.title !== undefined ? [sql`"title" = ${options.title}`] : []),
  ];

  return {
    session: (id) => sql`SELECT * FROM ${Session} WHERE "id" = ${id}`,
    events: (sessionId, afterSeq) => sql`SELECT "seq", "data", "createdAt" FROM ${Event} WHERE "sessionId" = ${sessionId} AND "seq" > ${afterSeq} ORDER BY "seq" ASC`,
    stop: (sessionId, runId) => sql`SELECT * FROM ${table('RunStop')} WHERE "sessionId" = ${sessionId} AND "runId" = ${runId}`,
    steers: (sessionId, runId) => sql`SELECT * FROM ${table('RunSteer')} WHERE "sessionId" = ${sessionId} AND "runId" = ${runId} ORDER BY "createdAt" ASC`,
    queue: (sessionId) => sql`SELECT * FROM ${table('QueuedMessage')} WHERE "sessionId" = ${sessionId} ORDER BY "position" ASC, "createdAt" ASC`,
    interrupt: (id) => sql`SELECT * FROM ${Interrupt} WHERE "id" = ${id}`,
    claim: (sessionId, expectedSeq, headSeq, now, options) =>
      sql`UPDATE ${Session} SET ${join([sql`"headSeq" = ${headSeq}`, sql`"updatedAt" = ${now}`, ...sessionColumns(options)], ', ')} WHERE "id" = ${sessionId} AND "headSeq" = ${expectedSeq}`,
    createSession: (sessionId, create, headSeq, now, options) =>
      sql`INSERT INTO ${Session} ("id", "ownerId", "agent", "headSeq", "status", "leaseUntil", "title", "createdAt", "updatedAt")
          VALUES (${sessionId}, ${create.ownerId}, ${create.agent}, ${headSeq}, ${options.status ?? 'idle'}, ${options.leaseUntil ?? null}, ${options.title ?? null}, ${now}, ${now})`,
    insertEvents: (sessionId, firstSeq, events, now) =>
      sql`INSERT INTO ${Event} ("sessionId", "seq", "type", "data", "createdAt") VALUES ${join(
        events.map((event, i) => sql`(${sessionId}, ${firstSeq + i}, ${event.type}, ${JSON.stringify(event)}, ${now})`),
      )}`,
    openInterrupts: (sessionId, records, now) =>
      sql`INSERT INTO ${Interrupt} ("id", "sessionId", "ownerId", "agent", "toolCallId", "toolName", "status", "data", "expiresAt", "approvers", "createdAt") VALUES ${join(
        records.map(
          (record) =>
            sql`(${record.id}, ${sessionId}, (SELECT "ownerId" FROM ${Session} WHERE "id" = ${sessionId}), ${record.agent}, ${record.toolCallId ?? null}, ${record.toolName ?? null}, 'pending', ${JSON.stringify(record)}, ${record.expiresAt ? new Date(record.expiresAt) : null}, ${record.approvers ?? null}, ${now})`,
        ),
      )}`,
    decideInterrupts: (ids, now) => sql`UPDATE ${Interrupt} SET "status" = 'decided', "decidedAt" = ${now} WHERE "id" IN (${join(ids)})`,
  };
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/**
 * A row as a raw query returns it: DateTime columns arrive as Dates on both databases, a SQLite
 * boolean may arrive as 0/1. The decoders below turn it into the store's records.
 */
export type Row = Record<string, unknown>;

const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));
const text = (value: unknown): string => String(value);
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function sessionFromRow(row: Row): SessionRecord {
  return {
    id: text(row.id),
    ownerId: text(row.ownerId),
    agent: text(row.agent),
    title: textOrNull(row.title),
    headSeq: Number(row.headSeq),
    status: text(row.status) as SessionStatus,
    leaseUntil: dateOrNull(row.leaseUntil),
    createdAt: date(row.createdAt),
    updatedAt: date(row.updatedAt),
  };
}

export function eventFromRow(row: Row): StoredEvent {
  return { seq: Number(row.seq), at: date(row.createdAt).toISOString(), event: JSON.parse(text(row.data)) as SessionEvent };
}

export function stopFromRow(row: Row): StopRecord {
  return { sessionId: text(row.sessionId), runId: text(row.runId), frontier: textOrNull(row.frontier), by: JSON.parse(text(row.by)) as StopRecord['by'], requestedAt: date(row.createdAt) };
}

export function steerFromRow(row: Row): SteerRecord {
  return { id: text(row.id), sessionId: text(row.sessionId), runId: text(row.runId), message: JSON.parse(text(row.message)) as ChatMessage, createdAt: date(row.createdAt) };
}

export function queuedFromRow(row: Row): QueuedMessage {
  return { sessionId: text(row.sessionId), message: JSON.parse(text(row.message)) as ChatMessage, runId: text(row.runId), source: text(row.source), position: Number(row.position), sendNow: Boolean(row.sendNow), createdAt: date(row.createdAt) };
}

export function interruptFromRow(row: Row): InterruptRow {
  return {
    id: text(row.id),
    sessionId: text(row.sessionId),
    ownerId: text(row.ownerId),
    agent: text(row.agent),
    status: text(row.status) as InterruptRow['status'],
    record: JSON.parse(text(row.data)) as InterruptRecord,
    createdAt: date(row.createdAt),
    decidedAt: dateOrNull(row.decidedAt),
  };
}
