// The EventStore over Prisma, one implementation for SQLite and PostgreSQL.
// Appends are compare-and-set on Session.headSeq: the session row is claimed first (an UPDATE
// conditioned on the head the writer read), then the events are inserted, in one transaction.
// Claiming first takes the write lock before anything else (the row lock in Postgres, the
// database lock in SQLite), so a losing writer finds the head moved and writes nothing; the
// (sessionId, seq) primary key is a second guard.
// Watchers hear of every append and stop: from this process right after it commits, and on
// PostgreSQL from other processes through NOTIFY (postgres-listener.ts).
import { randomUUID } from 'node:crypto';
import type { ChatMessage, SessionEvent } from '../events';
import type { Timer as TimerRow } from '../../generated/prisma-sqlite/client';
import { databaseKind, sqliteFilePath } from './database-url';
import { limitConcurrency } from './limit-concurrency';
import { sqliteTurns } from './sqlite-turns';
import { eventFromRow as toStoredEvent, hotPathSql, type HotPathSql, type Row, interruptFromRow as toInterruptRow, queuedFromRow as toQueuedMessage, sessionFromRow as toSessionRecord, steerFromRow as toSteerRecord, stopFromRow as toStopRecord } from './hot-path-sql';
import { openPrismaClient, parsePostgresUrl, postgresPoolSize, type StoreClient } from './prisma-client';
import { createPostgresListener, NOTIFY_SQL } from './postgres-listener';
import { createWatchHub, sharedWatchHub, storeWatchers } from './session-watch';
import { ConcurrentAppendError, type EventStore, type SteerRecord, type StopRecord, type TimerRecord } from './types';
import { timerMessages } from './timer-messages';

const DEFAULT_LIST_LIMIT = 100;

export interface PrismaStoreOptions {
  /**
   * Where the LISTEN connection goes (Postgres): the database's unpooled URL when databaseUrl
   * goes through a pooler in transaction mode, which drops a LISTEN at the end of its
   * transaction. Default: databaseUrl.
   */
  listenUrl?: string;
}

export function createPrismaStore(databaseUrl: string, options: PrismaStoreOptions = {}): EventStore {
  const kind = databaseKind(databaseUrl);
  const connection = lazyClient(databaseUrl);
  const hot = hotPathSql(kind === 'postgres' ? parsePostgresUrl(databaseUrl).schema : undefined);
  // Postgres: one place per pooled connection but one, which a query of its own may borrow (listRecoverable's pair).
  const exclusive = kind === 'sqlite' ? sqliteTurns(sqliteFilePath(databaseUrl)) : limitConcurrency(Math.max(1, postgresPoolSize(databaseUrl) - 1));
  // SQLite is one process: the stores on one file in it share their watchers, and that is
  // everyone. Postgres stores each have their own, and hear each other through NOTIFY.
  const hub = kind === 'sqlite' && sqliteFilePath(databaseUrl) !== ':memory:' ? sharedWatchHub(sqliteFilePath(databaseUrl)) : createWatchHub();
  const watchers = storeWatchers(hub);
  // Opened by the first watch(), not here: most processes never watch.
  const listener = kind === 'postgres' ? createPostgresListener(options.listenUrl ?? databaseUrl, hub) : null;
  let closed = false;

  function withClient<T>(work: (db: StoreClient) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('The event store is closed.'));
    return exclusive(async () => work(await connection.get())).catch((error: unknown) => {
      throw explain(error);
    });
  }

  /**
   * Inside a write's transaction: on Postgres, NOTIFY the session's watchers in every process
   * when it commits. Returns what to call if the transaction fails after all.
   */
  async function notifyOnCommit(tx: TransactionClient, sessionId: string): Promise<() => void> {
    if (!listener) return noop;
    const [sent] = await tx.$queryRawUnsafe<{ pid: number }[]>(NOTIFY_SQL, sessionId);
    // This process calls its own watchers after the commit; the echo of this NOTIFY is skipped.
    return listener.awaitEcho(Number(sent.pid), sessionId);
  }

  /** A NOTIFY of its own (a repeated stop changes nothing, but its caller may be waiting on it). */
  async function notifyAlone(db: StoreClient, sessionId: string): Promise<void> {
    if (!listener) return;
    let release = noop;
    try {
      await db.$transaction(async (tx) => {
        release = await notifyOnCommit(tx, sessionId);
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  /** A write of the session's side tables in a transaction that wakes its watchers, here and in other processes. */
  async function changing<T>(db: StoreClient, sessionId: string, work: (tx: TransactionClient) => Promise<T>): Promise<T> {
    let release = noop;
    try {
      const result = await db.$transaction(async (tx) => {
        const value = await work(tx);
        release = await notifyOnCommit(tx, sessionId);
        return value;
      });
      hub.notify(sessionId);
      return result;
    } catch (error) {
      release();
      throw error;
    }
  }

  return {
    kind,

    ensureSession: ({ id, ownerId, agent }) =>
      withClient(async (db) => {
        const existing = await db.session.findUnique({ where: { id } });
        if (existing) return toSessionRecord(existing);
        const now = new Date();
        try {
          return toSessionRecord(await db.session.create({ data: { id, ownerId, agent, createdAt: now, updatedAt: now } }));
        } catch (error) {
          // Another process created it between our read and insert: theirs is the one row.
          if (!isUniqueViolation(error)) throw error;
          const winner = await db.session.findUnique({ where: { id } });
          if (!winner) throw error;
          return toSessionRecord(winner);
        }
      }),

    getSession: (id) =>
      !nameable(id) ? Promise.resolve(null) : withClient(async (db) => {
        const [row] = await db.$queryRaw<Row[]>(hot.session(id));
        return row ? toSessionRecord(row) : null;
      }),

    listSessions: (ownerId, options = {}) =>
      !nameable(ownerId) || (options.agent !== undefined && !nameable(options.agent)) ? Promise.resolve([]) : withClient(async (db) => {
        const rows = await db.session.findMany({
          where: { ownerId, ...(options.agent !== undefined ? { agent: options.agent } : {}) },
          orderBy: [{ updatedAt: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
          take: options.limit ?? DEFAULT_LIST_LIMIT,
        });
        return rows.map(toSessionRecord);
      }),

    readEvents: (sessionId, afterSeq = 0) =>
      !nameable(sessionId) ? Promise.resolve([]) : withClient(async (db) => {
        const rows = await db.$queryRaw<Row[]>(hot.events(sessionId, afterSeq));
        return rows.map(toStoredEvent);
      }),

    append: async (sessionId, expectedSeq, events, options = {}) => {
      const result = await withClient(async (db) => {
        assertSeq(expectedSeq);
        const headSeq = expectedSeq + events.length;
        const now = new Date();
        let release = noop;
        try {
          await db.$transaction(async (tx) => {
            if (options.create) {
              if (expectedSeq !== 0) throw new Error(`A new session starts at seq 0 (got ${expectedSeq}).`);
              // A session someone created first is a unique violation: a lost race, like a moved head.
              await tx.$executeRaw(hot.createSession(sessionId, options.create, headSeq, now, options));
            } else {
              const claimed = await tx.$executeRaw(hot.claim(sessionId, expectedSeq, headSeq, now, options));
              if (claimed !== 1) throw new ConcurrentAppendError(sessionId, expectedSeq);
            }
            if (events.length > 0) await tx.$executeRaw(hot.insertEvents(sessionId, expectedSeq + 1, events, now));
            await projectInterrupts(tx, hot, sessionId, events, now);
            release = await notifyOnCommit(tx, sessionId);
          });
        } catch (error) {
          release();
          if (isUniqueViolation(error)) throw new ConcurrentAppendError(sessionId, expectedSeq);
          // A head that "moved" on a session that does not exist is a caller bug, not a race.
          if (ConcurrentAppendError.is(error) && (await db.$queryRaw<Row[]>(hot.session(sessionId))).length === 0) {
            throw new Error(`Session ${sessionId} does not exist (ensureSession first).`);
          }
          throw error;
        }
        return { headSeq };
      });
      hub.notify(sessionId, 'appended');
      return result;
    },

    findInterrupt: (id) =>
      !nameable(id) ? Promise.resolve(null) : withClient(async (db) => {
        const [row] = await db.$queryRaw<Row[]>(hot.interrupt(id));
        return row ? toInterruptRow(row) : null;
      }),

    listPendingInterrupts: (ownerId, options = {}) =>
      withClient(async (db) => {
        const rows = await db.interrupt.findMany({
          where: options.keyHolder
            ? { status: 'pending', OR: [{ ownerId }, { approvers: 'key-holders', ownerId: { startsWith: 'browser:' } }] }
            : { ownerId, status: 'pending' },
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
          take: options.limit ?? DEFAULT_LIST_LIMIT,
        });
        return rows.map(toInterruptRow);
      }),

    listRecoverable: (now, options = {}) =>
      withClient(async (db) => {
        const limit = options.limit ?? DEFAULT_LIST_LIMIT;
        const [stale, expired] = await Promise.all([
          // Longest waiting first, so that no session starves behind others.
          db.session.findMany({ where: { status: 'running', leaseUntil: { lt: now } }, select: { id: true }, orderBy: { leaseUntil: 'asc' }, take: limit }),
          db.interrupt.findMany({ where: { status: 'pending', expiresAt: { lte: now } }, select: { sessionId: true }, orderBy: { expiresAt: 'asc' }, take: limit }),
        ]);
        const queued = await db.queuedMessage.findMany({ where: { session: { status: 'idle' } }, select: { sessionId: true }, distinct: ['sessionId'], orderBy: { createdAt: 'asc' }, take: limit });
        return [...new Set([...stale.map((row) => row.id), ...expired.map((row) => row.sessionId), ...queued.map((row) => row.sessionId)])];
      }),

    renewLease: (sessionId, expectedSeq, until) =>
      withClient(async (db) => {
        // Prisma's @updatedAt bumps updatedAt here too; a session whose run is alive is the
        // active one, so listing it first is right anyway.
        const renewed = await db.session.updateMany({
          where: { id: sessionId, headSeq: expectedSeq },
          data: { leaseUntil: until },
        });
        return renewed.count === 1;
      }),

    requestStop: async ({ sessionId, runId, frontier = null, by }) => {
      const record = await withClient(async (db): Promise<StopRecord> => {
        const existing = await db.runStop.findUnique({ where: { sessionId_runId: { sessionId, runId } } });
        if (existing) {
          await notifyAlone(db, existing.sessionId);
          return toStopRecord(existing);
        }
        let release = noop;
        try {
          const created = await db.$transaction(async (tx) => {
            const row = await tx.runStop.create({
              data: { runId, sessionId, frontier, by: JSON.stringify(stopBy(by)), createdAt: new Date() },
            });
            release = await notifyOnCommit(tx, sessionId);
            return row;
          });
          return toStopRecord(created);
        } catch (error) {
          release();
          if (isForeignKeyViolation(error)) throw new Error(`Session ${sessionId} does not exist (ensureSession first).`, { cause: error });
          // Another caller stopped the run between our read and insert: theirs is the stop.
          if (!isUniqueViolation(error)) throw error;
          const winner = await db.runStop.findUnique({ where: { sessionId_runId: { sessionId, runId } } });
          if (!winner) throw error;
          await notifyAlone(db, winner.sessionId);
          return toStopRecord(winner);
        }
      });
      hub.notify(record.sessionId);
      return record;
    },

    findStop: (sessionId, runId) =>
      !nameable(sessionId) || !nameable(runId) ? Promise.resolve(null) : withClient(async (db) => {
        const [row] = await db.$queryRaw<Row[]>(hot.stop(sessionId, runId));
        return row ? toStopRecord(row) : null;
      }),

    addSteer: ({ sessionId, runId, message }) =>
      withClient(async (db): Promise<SteerRecord> => {
        const sent = await db.runSteer.findMany({ where: { sessionId, runId } });
        const existing = sent.map(toSteerRecord).find((steer) => steer.message.id === message.id);
        if (existing) {
          hub.notify(existing.sessionId);
          return existing;
        }
        try {
          return toSteerRecord(await changing(db, sessionId, (tx) => tx.runSteer.create({ data: { id: `str_${randomUUID()}`, sessionId, runId, message: JSON.stringify(message), createdAt: new Date() } })));
        } catch (error) {
          if (isForeignKeyViolation(error)) throw new Error(`Session ${sessionId} does not exist (ensureSession first).`, { cause: error });
          throw error;
        }
      }),

    enqueue: ({ sessionId, message, runId, source }) =>
      withClient(async (db) => {
        const existing = await db.queuedMessage.findUnique({ where: { sessionId_messageId: { sessionId, messageId: message.id } } });
        if (existing) return toQueuedMessage(existing);
        try {
          const row = await changing(db, sessionId, async (tx) => {
            const last = await tx.queuedMessage.aggregate({ where: { sessionId }, _max: { position: true } });
            return tx.queuedMessage.create({ data: { sessionId, messageId: message.id, message: JSON.stringify(message), runId, source, position: Math.max(0, last._max.position ?? 0) + 1, createdAt: new Date() } });
          });
          return toQueuedMessage(row);
        } catch (error) {
          if (isForeignKeyViolation(error)) throw new Error(`Session ${sessionId} does not exist (ensureSession first).`, { cause: error });
          // The same message queued twice at once: the first one stands.
          if (isUniqueViolation(error)) return toQueuedMessage((await db.queuedMessage.findUniqueOrThrow({ where: { sessionId_messageId: { sessionId, messageId: message.id } } })));
          throw error;
        }
      }),

    listQueue: (sessionId) => !nameable(sessionId) ? Promise.resolve([]) : withClient(async (db) => (await db.$queryRaw<Row[]>(hot.queue(sessionId))).map(toQueuedMessage)),

    updateQueued: (sessionId, messageId, change) =>
      withClient(async (db) => {
        const row = await changing(db, sessionId, async (tx) => {
          const where = { sessionId_messageId: { sessionId, messageId } };
          const current = await tx.queuedMessage.findUnique({ where });
          if (!current) return null;
          const message = change.content === undefined ? current.message : JSON.stringify({ ...(JSON.parse(current.message) as ChatMessage), content: change.content });
          return tx.queuedMessage.update({ where, data: { message, ...(change.position !== undefined ? { position: change.position } : {}), ...(change.sendNow !== undefined ? { sendNow: change.sendNow } : {}) } });
        });
        return row && toQueuedMessage(row);
      }),

    removeQueued: (sessionId, messageId) =>
      withClient(async (db) => (await changing(db, sessionId, (tx) => tx.queuedMessage.deleteMany({ where: { sessionId, messageId } }))).count === 1),

    listSteers: (sessionId, runId) =>
      !nameable(sessionId) || !nameable(runId) ? Promise.resolve([]) : withClient(async (db) => (await db.$queryRaw<Row[]>(hot.steers(sessionId, runId))).map(toSteerRecord)),

    scheduleTimer: ({ sessionId, key, fireAt, messages }) =>
      withClient(async (db) => {
        const existing = await db.timer.findUnique({ where: { sessionId_key: { sessionId, key } } });
        if (existing) return { timer: toTimerRecord(existing), created: false };
        const id = `tmr_${randomUUID()}`;
        try {
          const row = await db.timer.create({ data: { id, sessionId, key, fireAt, messages: JSON.stringify(timerMessages(id, messages)), createdAt: new Date() } });
          return { timer: toTimerRecord(row), created: true };
        } catch (error) {
          if (isForeignKeyViolation(error)) throw new Error(`Session ${sessionId} does not exist (ensureSession first).`, { cause: error });
          // The same key scheduled at the same moment elsewhere: that timer is the one.
          if (!isUniqueViolation(error)) throw error;
          const winner = await db.timer.findUnique({ where: { sessionId_key: { sessionId, key } } });
          if (!winner) throw error;
          return { timer: toTimerRecord(winner), created: false };
        }
      }),

    findTimer: (sessionId, key) =>
      !nameable(sessionId) || !nameable(key) ? Promise.resolve(null) : withClient(async (db) => {
        const row = await db.timer.findUnique({ where: { sessionId_key: { sessionId, key } } });
        return row ? toTimerRecord(row) : null;
      }),

    countPendingTimers: (sessionId) => (!nameable(sessionId) ? Promise.resolve(0) : withClient((db) => db.timer.count({ where: { sessionId, firedAt: null } }))),

    dueTimers: (now, options = {}) =>
      withClient(async (db) =>
        (await db.timer.findMany({ where: { firedAt: null, fireAt: { lte: now } }, orderBy: { fireAt: 'asc' }, take: options.limit ?? DEFAULT_LIST_LIMIT })).map(toTimerRecord),
      ),

    markTimerFired: (id, at) =>
      withClient(async (db) => (await db.timer.updateMany({ where: { id, firedAt: null }, data: { firedAt: at } })).count === 1),

    watch(sessionId, onChange) {
      if (closed) return noop;
      const unsubscribe = watchers.watch(sessionId, onChange);
      listener?.start();
      return unsubscribe;
    },

    async close() {
      if (closed) return;
      closed = true;
      watchers.removeAll();
      await listener?.close();
      // Let queued work finish before the connection goes.
      await exclusive(async () => connection.close());
    },
  };
}

type TransactionClient = Parameters<Parameters<StoreClient['$transaction']>[0]>[0];

const noop = () => {};

/** Only the documented keys of `by`, so what is stored is what the type promises. */
function stopBy(by: StopRecord['by']): StopRecord['by'] {
  return { source: by.source, ...(by.ownerId !== undefined ? { ownerId: by.ownerId } : {}) };
}

/**
 * Whether a text can name a row at all. PostgreSQL's text cannot hold NUL (a query with one
 * fails), so no id, owner or agent name contains it: a lookup by such a name finds nothing —
 * on SQLite too, so both stores answer alike.
 */
function nameable(text: string): boolean {
  return !text.includes('\u0000');
}

function toTimerRecord(row: TimerRow): TimerRecord {
  return { id: row.id, sessionId: row.sessionId, key: row.key, fireAt: row.fireAt, messages: JSON.parse(row.messages) as ChatMessage[], firedAt: row.firedAt };
}

/** Keeps the Interrupt table in step with interrupt events, inside the append's transaction. */
async function projectInterrupts(tx: TransactionClient, hot: HotPathSql, sessionId: string, events: SessionEvent[], now: Date) {
  const opened = events.flatMap((event) => (event.type === 'interrupts_opened' ? event.interrupts : []));
  const decided = events.flatMap((event) => (event.type === 'interrupt_decided' ? [event.interruptId] : []));
  if (opened.length > 0) await tx.$executeRaw(hot.openInterrupts(sessionId, opened, now));
  if (decided.length > 0) await tx.$executeRaw(hot.decideInterrupts(decided, now));
}

function assertSeq(seq: number) {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`expectedSeq must be a non-negative integer, got ${seq}`);
}

function prismaCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The driver's kind of failure of a raw query (P2010), as the adapter classifies it; a model
 * query reports the same failures as P2002 / P2003.
 */
function driverErrorKind(error: unknown): string | undefined {
  const kind = (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null)?.meta?.driverAdapterError?.cause?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === 'P2002' || driverErrorKind(error) === 'UniqueConstraintViolation';
}

function isForeignKeyViolation(error: unknown): boolean {
  return prismaCode(error) === 'P2003' || driverErrorKind(error) === 'ForeignKeyConstraintViolation';
}

/** Turns "table does not exist" into the one thing to do about it. */
function explain(error: unknown): unknown {
  if (prismaCode(error) !== 'P2021' && driverErrorKind(error) !== 'TableDoesNotExist') return error;
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`The database has no Stackbone tables: run \`npm run db:migrate\`. (${message})`, { cause: error });
}

/** Opens the client on first use; a failed open is retried by the next call, not cached. */
function lazyClient(databaseUrl: string) {
  let opening: Promise<StoreClient> | null = null;
  return {
    get(): Promise<StoreClient> {
      opening ??= openPrismaClient(databaseUrl).then(
        ({ client }) => client,
        (error: unknown) => {
          opening = null;
          throw error;
        },
      );
      return opening;
    },
    async close() {
      const pending = opening;
      opening = null;
      if (pending) await (await pending.catch(() => null))?.$disconnect();
    },
  };
}


