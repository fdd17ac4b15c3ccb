// The Prisma store's timers: messages a session is to receive at a time (docs/turn-control.md,
// "Timers"), one per (session, key), fired once.
import { randomUUID } from 'node:crypto';
import { DEFAULT_LIST_LIMIT } from './backend-rules';
import { createOnce } from './prisma-errors';
import { timerFromRow } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import { timerMessages } from './timer-messages';
import type { EventStore } from './types';

type Timers = Pick<EventStore, 'scheduleTimer' | 'findTimer' | 'countPendingTimers' | 'dueTimers' | 'markTimerFired'>;

export function prismaTimers({ withClient }: PrismaStoreContext): Timers {
  return {
    scheduleTimer: ({ sessionId, key, fireAt, messages }) =>
      withClient(async (db) => {
        const id = `tmr_${randomUUID()}`;
        // The same key scheduled at the same moment elsewhere: that timer is the one.
        const { row, created } = await createOnce(
          sessionId,
          () => db.timer.findUnique({ where: { sessionId_key: { sessionId, key } } }),
          () => db.timer.create({ data: { id, sessionId, key, fireAt, messages: JSON.stringify(timerMessages(id, messages)), createdAt: new Date() } }),
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
