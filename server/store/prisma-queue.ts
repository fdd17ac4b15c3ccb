// The Prisma store's queue: user messages waiting for the turn in progress to end
// (docs/turn-control.md, "Queue"). Every change wakes the session's watchers; an add is counted
// against its limit and written as one step (limited-write.ts).
import type { ChatMessage } from './messages';
import { nextQueuePosition, withContent } from './backend-rules';
import { limitedWrite } from './limited-write';
import { queuedFromRow } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import { LimitReachedError, type EventStore } from './types';

type Queue = Pick<EventStore, 'enqueue' | 'listQueue' | 'updateQueued' | 'removeQueued'>;

export function prismaQueue(context: PrismaStoreContext): Queue {
  const { hot, withClient, withRaw, wakeups } = context;
  return {
    enqueue: ({ sessionId, entries, source, limit }) =>
      withClient(async (db) => {
        const rows = await limitedWrite(
          context,
          db,
          sessionId,
          async (tx) => {
            const held = await tx.queuedMessage.findMany({ where: { sessionId }, select: { messageId: true, position: true } });
            const queued = new Set(held.map((row) => row.messageId));
            // A message queued already is that message; one named twice in the request is queued once.
            const fresh = [...new Map(entries.filter((entry) => !queued.has(entry.message.id)).map((entry) => [entry.message.id, entry])).values()];
            if (limit !== undefined && held.length + fresh.length > limit) throw new LimitReachedError(limit, held.length);
            let last = Math.max(0, ...held.map((row) => row.position));
            const now = new Date();
            for (const { message, runId } of fresh) {
              last = nextQueuePosition(last);
              await tx.queuedMessage.create({
                data: { sessionId, messageId: message.id, message: JSON.stringify(message), runId, source, position: last, createdAt: now },
              });
            }
            return tx.queuedMessage.findMany({ where: { sessionId, messageId: { in: entries.map((entry) => entry.message.id) } } });
          },
          { wake: true },
        );
        const byId = new Map(rows.map((row) => [row.messageId, queuedFromRow(row)]));
        return entries.map((entry) => byId.get(entry.message.id)!);
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
