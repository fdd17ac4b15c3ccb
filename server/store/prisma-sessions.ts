// The Prisma store's sessions and their logs: creating and listing sessions, the append (a
// compare-and-set on Session.headSeq, prisma-store.ts says how), the interrupt projection it keeps
// in step, and the sessions a recovery sweep takes on.
import { notableEvents } from './notices';
import {
  checkExpectedSeq,
  DEFAULT_LIST_LIMIT,
  BROWSER_OWNER_PREFIX,
  encodeEvents,
  interruptChanges,
  noSuchSession,
  recoverableSessionIds,
} from './backend-rules';
import type { HotPathSql } from './hot-path-sql';
import { createOnce, isUniqueViolation } from './prisma-errors';
import { eventFromRow, interruptFromRow, sessionFromRow, type Row } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import type { RawSql } from './raw-sql';
import type { Prisma } from '../../generated/prisma-sqlite/client';
import { ConcurrentAppendError, UnseenGuidanceError, type EventStore, type PendingInterruptsOptions } from './types';

type SessionsAndLog = Pick<
  EventStore,
  | 'ensureSession'
  | 'getSession'
  | 'listSessions'
  | 'readEvents'
  | 'append'
  | 'renewLease'
  | 'findInterrupt'
  | 'listPendingInterrupts'
  | 'countPendingInterrupts'
  | 'listRecoverable'
>;

export function prismaSessionsAndLog({ hot, withClient, withRaw, hub }: PrismaStoreContext): SessionsAndLog {
  return {
    ensureSession: ({ id, ownerId, agent }) =>
      withClient(async (db) => {
        const now = new Date();
        const { row } = await createOnce(
          id,
          () => db.session.findUnique({ where: { id } }),
          () => db.session.create({ data: { id, ownerId, agent, createdAt: now, updatedAt: now } }),
        );
        return sessionFromRow(row);
      }),

    getSession: (id) =>
      !nameable(id)
        ? Promise.resolve(null)
        : withRaw(async (raw) => {
            const [row] = await raw.query(hot.session(id));
            return row ? sessionFromRow(row) : null;
          }),

    listSessions: (ownerId, options = {}) =>
      !nameable(ownerId, options.agent ?? '')
        ? Promise.resolve([])
        : withClient(async (db) => {
            const rows = await db.session.findMany({
              where: {
                ownerId,
                ...(options.agent !== undefined ? { agent: options.agent } : {}),
                ...(options.parentId !== undefined ? { parentId: options.parentId } : {}),
              },
              orderBy: [{ updatedAt: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
              take: options.limit ?? DEFAULT_LIST_LIMIT,
            });
            return rows.map(sessionFromRow);
          }),

    readEvents: (sessionId, afterSeq = 0) =>
      !nameable(sessionId)
        ? Promise.resolve([])
        : withRaw(async (raw) => {
            const rows = await raw.query(hot.events(sessionId, afterSeq));
            return rows.map(eventFromRow);
          }),

    append: async (sessionId, expectedSeq, events, options = {}) => {
      const result = await withRaw(async (raw) => {
        checkExpectedSeq(expectedSeq, options.create !== undefined);
        const headSeq = expectedSeq + events.length;
        const now = new Date();
        const notices = events.length > 0 ? notableEvents(sessionId, expectedSeq + 1, events) : [];
        const interrupts = interruptChanges(events);
        const { encoded, bytes } = encodeEvents(events);
        const inOne =
          raw.notifyingStatement && hot.appendStatement({ sessionId, expectedSeq, headSeq, events: encoded, bytes, notices, interrupts, now, options });
        try {
          if (inOne) {
            // Nothing written when the head had moved (or the session was created first): a lost race.
            if ((await raw.notifyingStatement!(sessionId, inOne)).length !== 1) throw new ConcurrentAppendError(sessionId, expectedSeq);
          } else
            await raw.transaction(sessionId, async (tx) => {
              if (options.create) {
                // A session someone created first is a unique violation: a lost race, like a moved head.
                await tx.execute(hot.createSession(sessionId, options.create, headSeq, bytes, now, options));
              } else {
                const claimed = await tx.execute(hot.claim(sessionId, expectedSeq, headSeq, bytes, now, options));
                if (claimed !== 1) throw new ConcurrentAppendError(sessionId, expectedSeq);
              }
              // The outbox's notices commit with their events, or not at all (docs/approvals.md, "Decision webhooks").
              if (events.length > 0) {
                for (const statement of hot.insertEvents(sessionId, expectedSeq + 1, encoded, notices, now)) {
                  await tx.execute(statement);
                }
              }
              await projectInterrupts(tx, hot, sessionId, interrupts, now);
            });
        } catch (error) {
          if (isUniqueViolation(error)) throw new ConcurrentAppendError(sessionId, expectedSeq);
          if (ConcurrentAppendError.is(error)) {
            const [session] = await raw.query(hot.session(sessionId));
            // A head that "moved" on a session that does not exist is a caller bug, not a race.
            if (!session) throw noSuchSession(sessionId);
            // A claim refused at the head it expected: the run's unread guidance refused it (steers are never taken back).
            if (
              options.unlessGuidance &&
              Number(session.headSeq) === expectedSeq &&
              (await raw.query(hot.unseenGuidance(sessionId, options.unlessGuidance))).length > 0
            )
              throw new UnseenGuidanceError(sessionId);
          }
          throw error;
        }
        return { headSeq, at: now.toISOString() };
      });
      hub.notify(sessionId, 'appended');
      return result;
    },

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

    findInterrupt: (id) =>
      !nameable(id)
        ? Promise.resolve(null)
        : withRaw(async (raw) => {
            const [row] = await raw.query(hot.interrupt(id));
            return row ? interruptFromRow(row) : null;
          }),

    listPendingInterrupts: (ownerId, options = {}) => {
      // A kept part without a key holder's rights lists nothing (backend-rules.ts, listsInterrupt); a NUL is no id (PostgreSQL refuses it).
      if ((options.part === 'kept' && !options.keyHolder) || !nameable(ownerId, options.after?.id ?? '')) return Promise.resolve([]);
      const status = options.status ?? 'pending';
      const limit = options.limit ?? DEFAULT_LIST_LIMIT;
      // An owner's own, from the top: every browser turn asks (paused-threads.ts), so on the hot path.
      if (!options.after && listsOwnOnly(options))
        return withRaw(async (raw) => (await raw.query(hot.ownInterrupts(ownerId, status, limit))).map(interruptFromRow));
      return withClient(async (db) => {
        const after = options.after;
        const rows = await db.interrupt.findMany({
          where: {
            status,
            AND: [
              listedOwners(ownerId, options),
              ...(after ? [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] }] : []),
            ],
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
          take: limit,
        });
        return rows.map(interruptFromRow);
      });
    },

    countPendingInterrupts: () =>
      withClient(async (db) => {
        const groups = await db.interrupt.groupBy({ by: ['toolName'], where: { status: 'pending' }, _count: { _all: true } });
        return Object.fromEntries(groups.map((group) => [group.toolName ?? '', group._count._all]));
      }),

    listRecoverable: (now, options = {}) =>
      withClient(async (db) => {
        const limit = options.limit ?? DEFAULT_LIST_LIMIT;
        const [stale, expired, reminders] = await Promise.all([
          db.session.findMany({ where: { status: 'running', leaseUntil: { lt: now } }, select: { id: true }, orderBy: { leaseUntil: 'asc' }, take: limit }),
          db.interrupt.findMany({
            where: { status: 'pending', expiresAt: { lte: now } },
            select: { sessionId: true },
            orderBy: { expiresAt: 'asc' },
            take: limit,
          }),
          db.$queryRaw<Row[]>(hot.dueReminders(now, limit)),
        ]);
        const queued = await db.queuedMessage.findMany({
          where: { session: { status: 'idle' } },
          select: { sessionId: true },
          distinct: ['sessionId'],
          orderBy: { createdAt: 'asc' },
          take: limit,
        });
        return recoverableSessionIds({
          stale: stale.map((row) => row.id),
          expired: expired.map((row) => row.sessionId),
          queued: queued.map((row) => row.sessionId),
          reminders: reminders.map((row) => String(row.sessionId)),
        });
      }),
  };
}

/** Keeps the Interrupt table in step with interrupt events, inside the append's transaction. */
async function projectInterrupts(tx: RawSql, hot: HotPathSql, sessionId: string, changes: ReturnType<typeof interruptChanges>, now: Date) {
  const { opened, decided, escalated, reminded } = changes;
  if (opened.length > 0) await tx.execute(hot.openInterrupts(sessionId, opened, now));
  if (decided.length > 0) await tx.execute(hot.decideInterrupts(decided, now));
  for (const { id, expiresAt } of escalated) await tx.execute(hot.escalateInterrupt(id, new Date(expiresAt)));
  if (reminded.length > 0) await tx.execute(hot.remindedInterrupts(reminded));
}

/** Whether a listing holds the owner's own rows alone: asked for, or all a caller without a key holder's rights may see. */
function listsOwnOnly(options: PendingInterruptsOptions): boolean {
  return options.part === 'own' || !options.keyHolder;
}

/** The owners' rows a listing holds, as listsInterrupt (backend-rules.ts) says: the owner's own, and a key holder's kept ones. */
function listedOwners(ownerId: string, options: PendingInterruptsOptions): Prisma.InterruptWhereInput {
  const kept: Prisma.InterruptWhereInput = {
    ownerId: { not: ownerId },
    OR: [{ approvers: 'key-holders', ownerId: { startsWith: BROWSER_OWNER_PREFIX } }, { approvers: 'named' }],
  };
  if (listsOwnOnly(options)) return { ownerId };
  return options.part === 'kept' ? kept : { OR: [{ ownerId }, kept] };
}
