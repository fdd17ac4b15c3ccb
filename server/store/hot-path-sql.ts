// The store's hot path — the reads and the append every turn makes — as SQL of its own, sent
// through Prisma's raw queries. The ORM compiles every model query before sending it, about
// 0.7–0.9 ms a call on these machines against 0.2–0.5 ms for the same statement raw, and a turn
// makes a dozen such calls, one at a time on SQLite (docs/internals/benchmarks.md, "Where the time went").
// The statements are plain SQL both databases accept; the tables are the ones prisma/ declares.
import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { InterruptRecord } from './pauses';
import type { NotableEvent } from './notices';
import type { AppendOptions } from './types';
import { approversColumn, type EncodedEvent, type interruptChanges } from './backend-rules';
import { SESSION_CHANNEL } from './postgres-listener';

export interface HotPathSql {
  session(id: string): Sql;
  events(sessionId: string, afterSeq: number): Sql;
  stop(sessionId: string, runId: string): Sql;
  steers(sessionId: string, runId: string): Sql;
  queue(sessionId: string): Sql;
  interrupt(id: string): Sql;
  /** An owner's own interrupts in a status, newest first: a browser's check of its paused threads before each turn, and an inbox's first page of "mine". */
  ownInterrupts(ownerId: string, status: string, limit: number): Sql;
  /** A steer of these runs but those seen, if the session has one (AppendOptions.unlessGuidance). */
  unseenGuidance(sessionId: string, guard: NonNullable<AppendOptions['unlessGuidance']>): Sql;
  /**
   * The compare-and-set on the head: one row updated, or the head moved (or, with
   * `options.unlessGuidance`, the run has guidance it has not read). `bytes`: what the events add to the log's size.
   */
  claim(sessionId: string, expectedSeq: number, headSeq: number, bytes: number, now: Date, options: AppendOptions): Sql;
  createSession(sessionId: string, create: NonNullable<AppendOptions['create']>, headSeq: number, bytes: number, now: Date, options: AppendOptions): Sql;
  /**
   * The events, and the outbox's notices of the notable ones (server/store/notices.ts). On PostgreSQL one
   * statement (a data-modifying WITH), so that the notices cost the append no round trip of their
   * own; SQLite, in this process, runs two.
   */
  insertEvents(sessionId: string, firstSeq: number, events: EncodedEvent[], notices: NotableEvent[], now: Date): Sql[];
  /** The Interrupt projection's new rows, owned as their session is. */
  openInterrupts(sessionId: string, records: InterruptRecord[], now: Date): Sql;
  decideInterrupts(ids: string[], now: Date): Sql;
  /** An escalation's new expiry (docs/approvals.md). */
  escalateInterrupt(id: string, expiresAt: Date): Sql;
  /** Reminders recorded: none is due any more. */
  remindedInterrupts(ids: string[]): Sql;
  /** Sessions with an open interrupt whose reminder is due, the longest due first. */
  dueReminders(now: Date, limit: number): Sql;
  /**
   * PostgreSQL: a lock on the session's rows beside its log (queue, steers, timers) until the
   * transaction ends, so that a count and the insert it allows are one step for every process on
   * the database (a limit checked, then written, by two at once would pass it). A transaction
   * lock on a number, not a row lock on the session, so that appends never wait on it. Null on
   * SQLite, whose writes take turns already (sqlite-turns.ts, and one process per file).
   */
  lockSideTables(sessionId: string): Sql | null;
  /**
   * PostgreSQL: the whole append as one statement — the claim (or the new session), the events,
   * their notices, the interrupt projection and the NOTIFY, each written only if the claim took —
   * answering one row when it took and none when the head had moved. One round trip where the
   * transaction takes five (docs/internals/benchmarks.md, "Where the time went"). Null where it cannot
   * serve: on SQLite, and for changes one statement cannot make (an interrupt opened and decided
   * in the same append, escalations and reminders: the sub-statements of one statement do not
   * see each other's rows).
   */
  appendStatement(plan: AppendPlan): Sql | null;
}

interface AppendPlan {
  sessionId: string;
  expectedSeq: number;
  headSeq: number;
  events: EncodedEvent[];
  /** What the events add to the log's size. */
  bytes: number;
  notices: NotableEvent[];
  interrupts: ReturnType<typeof interruptChanges>;
  now: Date;
  options: AppendOptions;
}

/**
 * `postgres`: the database is PostgreSQL; `schema`: its schema of `?schema=` (Prisma qualifies its
 * own queries with it; raw ones must too).
 */
export function hotPathSql(postgres: boolean, schema?: string): HotPathSql {
  const table = (name: string) => raw(schema ? `${quote(schema)}.${quote(name)}` : quote(name));
  const Session = table('Session');
  const Event = table('Event');
  const Interrupt = table('Interrupt');

  const insertEvents = (sessionId: string, firstSeq: number, events: EncodedEvent[], now: Date) =>
    sql`INSERT INTO ${Event} ("sessionId", "seq", "type", "data", "createdAt") VALUES ${join(
      events.map((event, i) => sql`(${sessionId}, ${firstSeq + i}, ${event.type}, ${event.data}, ${now})`),
    )}`;
  /** The outbox's notices, owned and named as their session is. */
  const insertNotices = (sessionId: string, notices: NotableEvent[], now: Date) =>
    sql`INSERT INTO ${table('Notice')} ("id", "sessionId", "seq", "type", "ownerId", "agent", "data", "createdAt") VALUES ${join(
      notices.map(
        (notice) =>
          sql`(${notice.id}, ${sessionId}, ${notice.seq}, ${notice.type}, (SELECT "ownerId" FROM ${Session} WHERE "id" = ${sessionId}), (SELECT "agent" FROM ${Session} WHERE "id" = ${sessionId}), ${JSON.stringify(notice.data)}, ${now})`,
      ),
    )}`;

  /** The status, lease and title an append sets; absent ones stay as they are. */
  const sessionColumns = (options: AppendOptions): Sql[] => [
    ...(options.status !== undefined ? [sql`"status" = ${options.status}`] : []),
    ...(options.leaseUntil !== undefined ? [sql`"leaseUntil" = ${options.leaseUntil}`] : []),
    ...(options.title !== undefined ? [sql`"title" = ${options.title}`] : []),
  ];

  /** Steers of the runs but those seen, for the claim's condition and for telling why a claim did not take. */
  const unseenSteers = (sessionId: string, { runIds, seen }: NonNullable<AppendOptions['unlessGuidance']>) =>
    sql`SELECT "id" FROM ${table('RunSteer')} WHERE "sessionId" = ${sessionId} AND "runId" IN (${join(runIds)})${seen.length > 0 ? sql` AND "id" NOT IN (${join(seen)})` : empty}`;
  /**
   * The claim's condition: the head the writer read and, with `unlessGuidance`, no guidance its
   * run has not read. In the claim's own statement, so that a run closing its turn needs no read
   * of its guidance before (docs/internals/benchmarks.md, "Where a short turn's time goes on PostgreSQL").
   */
  const claimWhere = (sessionId: string, expectedSeq: number, options: AppendOptions) =>
    sql`"id" = ${sessionId} AND "headSeq" = ${expectedSeq}${options.unlessGuidance ? sql` AND NOT EXISTS (${unseenSteers(sessionId, options.unlessGuidance)})` : empty}`;

  /** What an append sets on its session's row: the head, the log's size (a running sum: no read of the log), the time, and the options'. */
  const headColumns = (headSeq: number, bytes: number, now: Date, options: AppendOptions): Sql[] => [
    sql`"headSeq" = ${headSeq}`,
    sql`"logBytes" = "logBytes" + ${bytes}`,
    sql`"updatedAt" = ${now}`,
    ...sessionColumns(options),
  ];

  /** Rows for an INSERT … SELECT, typed: PostgreSQL infers no column types for the parameters of a VALUES list there. */
  const values = (columns: string[], rows: Sql[][]) =>
    sql`(VALUES ${join(rows.map((row) => sql`(${join(row)})`))}) AS "v"(${raw(columns.map(quote).join(', '))})`;
  const timestamp = (date: Date | null) => sql`CAST(${date} AS timestamp(3))`;
  const int = (value: number) => sql`CAST(${value} AS integer)`;
  const text = (value: string | null) => sql`CAST(${value} AS text)`;

  const appendStatement = ({ sessionId, expectedSeq, headSeq, events, bytes, notices, interrupts, now, options }: AppendPlan): Sql | null => {
    const openedIds = new Set(interrupts.opened.map((record) => record.id));
    if (!postgres || interrupts.escalated.length > 0 || interrupts.reminded.length > 0 || interrupts.decided.some((id) => openedIds.has(id))) return null;
    const claim = options.create
      ? sql`INSERT INTO ${Session} ("id", "ownerId", "agent", "headSeq", "logBytes", "status", "leaseUntil", "title", "parentId", "createdAt", "updatedAt")
            VALUES (${sessionId}, ${options.create.ownerId}, ${options.create.agent}, ${headSeq}, ${bytes}, ${options.status ?? 'idle'},
                    ${options.leaseUntil ?? null}, ${options.title ?? null}, ${options.create.parentId ?? null}, ${now}, ${now})
            ON CONFLICT ("id") DO NOTHING RETURNING "id", "ownerId", "agent"`
      : sql`UPDATE ${Session} SET ${join(headColumns(headSeq, bytes, now, options), ', ')}
            WHERE ${claimWhere(sessionId, expectedSeq, options)} RETURNING "id", "ownerId", "agent"`;
    const parts: Sql[] = [sql`"claim" AS (${claim})`];
    if (events.length > 0) {
      const rows = events.map((event, i) => [int(expectedSeq + 1 + i), text(event.type), text(event.data), timestamp(now)]);
      parts.push(sql`"events" AS (INSERT INTO ${Event} ("sessionId", "seq", "type", "data", "createdAt")
        SELECT "claim"."id", "v"."seq", "v"."type", "v"."data", "v"."createdAt" FROM "claim", ${values(['seq', 'type', 'data', 'createdAt'], rows)})`);
    }
    if (notices.length > 0) {
      const rows = notices.map((notice) => [text(notice.id), int(notice.seq), text(notice.type), text(JSON.stringify(notice.data)), timestamp(now)]);
      parts.push(sql`"notices" AS (INSERT INTO ${table('Notice')} ("id", "sessionId", "seq", "type", "ownerId", "agent", "data", "createdAt")
        SELECT "v"."id", "claim"."id", "v"."seq", "v"."type", "claim"."ownerId", "claim"."agent", "v"."data", "v"."createdAt" FROM "claim", ${values(['id', 'seq', 'type', 'data', 'createdAt'], rows)})`);
    }
    if (interrupts.opened.length > 0) {
      const rows = interrupts.opened.map((record) => [
        text(record.id),
        text(record.agent),
        text(record.toolCallId ?? null),
        text(record.toolName ?? null),
        text(JSON.stringify(record)),
        timestamp(record.expiresAt ? new Date(record.expiresAt) : null),
        text(approversColumn(record)),
        timestamp(record.remindAt ? new Date(record.remindAt) : null),
        timestamp(now),
      ]);
      parts.push(sql`"opened" AS (INSERT INTO ${Interrupt} ("id", "sessionId", "ownerId", "agent", "toolCallId", "toolName", "status", "data", "expiresAt", "approvers", "remindAt", "createdAt")
        SELECT "v"."id", "claim"."id", "claim"."ownerId", "v"."agent", "v"."toolCallId", "v"."toolName", 'pending', "v"."data", "v"."expiresAt", "v"."approvers", "v"."remindAt", "v"."createdAt"
        FROM "claim", ${values(['id', 'agent', 'toolCallId', 'toolName', 'data', 'expiresAt', 'approvers', 'remindAt', 'createdAt'], rows)})`);
    }
    if (interrupts.decided.length > 0) {
      parts.push(
        sql`"decided" AS (UPDATE ${Interrupt} SET "status" = 'decided', "decidedAt" = ${now} WHERE "id" IN (${join(interrupts.decided)}) AND EXISTS (SELECT 1 FROM "claim"))`,
      );
    }
    return sql`WITH ${join(parts, ', ')} SELECT pg_notify(${SESSION_CHANNEL}, "claim"."id") FROM "claim"`;
  };

  return {
    appendStatement,
    session: (id) => sql`SELECT * FROM ${Session} WHERE "id" = ${id}`,
    events: (sessionId, afterSeq) =>
      sql`SELECT "seq", "data", "createdAt" FROM ${Event} WHERE "sessionId" = ${sessionId} AND "seq" > ${afterSeq} ORDER BY "seq" ASC`,
    stop: (sessionId, runId) => sql`SELECT * FROM ${table('RunStop')} WHERE "sessionId" = ${sessionId} AND "runId" = ${runId}`,
    steers: (sessionId, runId) => sql`SELECT * FROM ${table('RunSteer')} WHERE "sessionId" = ${sessionId} AND "runId" = ${runId} ORDER BY "createdAt" ASC`,
    queue: (sessionId) => sql`SELECT * FROM ${table('QueuedMessage')} WHERE "sessionId" = ${sessionId} ORDER BY "position" ASC, "createdAt" ASC`,
    interrupt: (id) => sql`SELECT * FROM ${Interrupt} WHERE "id" = ${id}`,
    ownInterrupts: (ownerId, status, limit) =>
      sql`SELECT * FROM ${Interrupt} WHERE "status" = ${status} AND "ownerId" = ${ownerId} ORDER BY "createdAt" DESC, "id" ASC LIMIT ${limit}`,
    unseenGuidance: (sessionId, guard) => sql`${unseenSteers(sessionId, guard)} LIMIT 1`,
    claim: (sessionId, expectedSeq, headSeq, bytes, now, options) =>
      sql`UPDATE ${Session} SET ${join(headColumns(headSeq, bytes, now, options), ', ')} WHERE ${claimWhere(sessionId, expectedSeq, options)}`,
    createSession: (sessionId, create, headSeq, bytes, now, options) =>
      sql`INSERT INTO ${Session} ("id", "ownerId", "agent", "headSeq", "logBytes", "status", "leaseUntil", "title", "parentId", "createdAt", "updatedAt")
          VALUES (${sessionId}, ${create.ownerId}, ${create.agent}, ${headSeq}, ${bytes}, ${options.status ?? 'idle'},
                  ${options.leaseUntil ?? null}, ${options.title ?? null}, ${create.parentId ?? null}, ${now}, ${now})`,
    insertEvents: (sessionId, firstSeq, events, notices, now) => {
      const rows = insertEvents(sessionId, firstSeq, events, now);
      if (notices.length === 0) return [rows];
      return postgres ? [sql`WITH "events" AS (${rows}) ${insertNotices(sessionId, notices, now)}`] : [rows, insertNotices(sessionId, notices, now)];
    },
    openInterrupts: (sessionId, records, now) =>
      sql`INSERT INTO ${Interrupt} ("id", "sessionId", "ownerId", "agent", "toolCallId", "toolName", "status", "data", "expiresAt", "approvers", "remindAt", "createdAt") VALUES ${join(
        records.map(
          (record) =>
            sql`(${record.id}, ${sessionId}, (SELECT "ownerId" FROM ${Session} WHERE "id" = ${sessionId}), ${record.agent}, ${record.toolCallId ?? null}, ${record.toolName ?? null}, 'pending', ${JSON.stringify(record)}, ${record.expiresAt ? new Date(record.expiresAt) : null}, ${approversColumn(record)}, ${record.remindAt ? new Date(record.remindAt) : null}, ${now})`,
        ),
      )}`,
    decideInterrupts: (ids, now) => sql`UPDATE ${Interrupt} SET "status" = 'decided', "decidedAt" = ${now} WHERE "id" IN (${join(ids)})`,
    escalateInterrupt: (id, expiresAt) => sql`UPDATE ${Interrupt} SET "expiresAt" = ${expiresAt} WHERE "id" = ${id}`,
    remindedInterrupts: (ids) => sql`UPDATE ${Interrupt} SET "remindAt" = NULL WHERE "id" IN (${join(ids)})`,
    lockSideTables: (sessionId) =>
      postgres ? sql`SELECT pg_advisory_xact_lock(${raw(String(SIDE_TABLES_LOCK))}, hashtext(${`${schema ?? ''}/${sessionId}`}))` : null,
    dueReminders: (now, limit) =>
      sql`SELECT "sessionId" FROM ${Interrupt} WHERE "status" = 'pending' AND "remindAt" IS NOT NULL AND "remindAt" <= ${now} ORDER BY "remindAt" ASC LIMIT ${limit}`,
  };
}

/** The first key of the side tables' advisory locks, so that they never meet an app's own ("Stkb"). */
const SIDE_TABLES_LOCK = 0x53746b62;

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
