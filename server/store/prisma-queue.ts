// The Prisma store's queue: user messages waiting for the turn in progress to end
// (docs/turn-control.md, "Queue"). Every change wakes the session's watchers.
import type { ChatMessage } from '../events';
import { nextQueuePosition, withContent } from './backend-rules';
import { createOnce } from './prisma-errors';
import { queuedFromRow } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import type { EventStore } from './types';

type Queue = Pick<EventStore, 'enqueue' | 'listQueue' | 'updateQueued' | 'removeQueued'>;

export function prismaQueue({ hot, withClient, withRaw, wakeups }: PrismaStoreContext): Queue {
  return {
    enqueue: ({ sessionId, message, runId, source }) =>
      withClient(async (db) => {
        const where = { sessionId_messageId: { sessionId, messageId: message.id } };
        // The same message queued twice at once: the first one stands.
        const { row } = await createOnce(
          sessionId,
          () => db.queuedMessage.findUnique({ where }),
          () =>
            wakeups.changing(db, sessionId, async (tx) => {
              const last = await tx.queuedMessage.aggregate({ where: { sessionId }, _max: { position: true } });
              return tx.queuedMessage.create({
                data: {
                  sessionId,
                  messageId: message.id,
                  message: JSON.stringify(message),
                  runId,
                  source,
                  position: nextQueuePosition(last._max.position),
                  createdAt: new Date(),
                },
              });
            }),
        );
        return queuedFromRow(row);
      }),

    listQueue: (sessionId) => (!nameable(sessionId) ? Promise.resolve([]) : withRaw(async (raw) => (await raw.query(hot.queue(sessionId))).map(queuedFromRow))),

    updateQueued: (sessionId, messageId, change) =>
      withClient(async (db) => {
        const row = await wakeups.changing(db, sessionId, async (tx) => {
          const where = { sessionId_messageId: { sessionId, messageId } };
          const current = await tx.queuedMessage.findUnique({ where });
          if (!current) return null;
          const message =
            change.content === undefined ? current.message : JSON.stringify(withContent(JSON.parse(current.message) as ChatMessage, change.content));
          return tx.queuedMessage.update({
            where,
            data: {
              message,
              ...(change.position !== undefined ? { position: change.position } : {}),
              ...(change.sendNow !== undefined ? { sendNow: change.sendNow } : {}),
            },
          });
        });
        return row && queuedFromRow(row);
      }),

    removeQueued: (sessionId, messageId) =>
      withClient(async (db) => (await wakeups.changing(db, sessionId, (tx) => tx.queuedMessage.deleteMany({ where: { sessionId, messageId } }))).count === 1),
  };
}
