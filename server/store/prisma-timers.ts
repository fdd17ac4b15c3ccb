// The Prisma store's timers: messages a session is to receive at a time (docs/turn-control.md,
// "Timers"), one per (session, key), fired once; a new one is counted against the session's
// limit and written as one step (limited-write.ts).
import { randomUUID } from 'node:crypto';
import { DEFAULT_LIST_LIMIT } from './backend-rules';
import { limitedWrite } from './limited-write';
import { timerFromRow } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import { timerMessages } from './timer-messages';
import { LimitReachedError, type EventStore } from './types';

type Timers = Pick<EventStore, 'scheduleTimer' | 'findTimer' | 'countPendingTimers' | 'dueTimers' | 'markTimerFired'>;

export function prismaTimers(context: PrismaStoreContext): Timers {
  const { withClient } = context;
  return {
    scheduleTimer: ({ sessionId, key, fireAt, messages, limit }) =>
      withClient(async (db) => {
        const id = `tmr_${randomUUID()}`;
        const { row, created } = await limitedWrite(
          context,
          db,
          sessionId,
          async (tx) => {
            // The same key scheduled before, here or elsewhere: that timer is the one.
            const found = await tx.timer.findUnique({ where: { sessionId_key: { sessionId, key } } });
            if (found) return { row: found, created: false };
            if (limit !== undefined) {
              const held = await tx.timer.count({ where: { sessionId, firedAt: null } });
              if (held >= limit) throw new LimitReachedError(limit, held);
            }
            const data = { id, sessionId, key, fireAt, messages: JSON.stringify(timerMessages(id, messages)), createdAt: new Date() };
            return { row: await tx.timer.create({ data }), created: true };
          },
          { wake: false },
        );
        return { timer: timerFromRow(row), created };
      }),

    findTimer: (sessionId, key) =>
      !nameable(sessionId, key)
        ? Promise.resolve(null)
        : withClient(async (db) => {
            const row = await db.timer.findUnique({ where: { sessionId_key: { sessionId, key } } });
            return row ? timerFromRow(row) : null;
          }),

    countPendingTimers: (sessionId) =>
      !nameable(sessionId) ? Promise.resolve(0) : withClient((db) => db.timer.count({ where: { sessionId, firedAt: null } })),

    dueTimers: (now, options = {}) =>
      withClient(async (db) =>
        (
          await db.timer.findMany({ where: { firedAt: null, fireAt: { lte: now } }, orderBy: { fireAt: 'asc' }, take: options.limit ?? DEFAULT_LIST_LIMIT })
        ).map(timerFromRow),
      ),

    markTimerFired: (id, at) => withClient(async (db) => (await db.timer.updateMany({ where: { id, firedAt: null }, data: { firedAt: at } })).count === 1),
  };
}
