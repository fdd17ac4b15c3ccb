// The Prisma store's outbox (docs/approvals.md, "Decision webhooks"): the notices append() writes
// with their events (prisma-sessions.ts), fanned out into one delivery per channel target, and
// the deliveries' attempts, claimed with a lease so that no two processes send the same one.
import { BROWSER_OWNER_PREFIX, DEFAULT_LIST_LIMIT, deliveryChange, deliveryId, OPEN_DELIVERY_STATUSES, retryable } from './backend-rules';
import { isUniqueViolation } from './prisma-errors';
import { deliveryFromRow, noticeFromRow } from './prisma-rows';
import type { PrismaStoreContext } from './prisma-store-context';
import type { DeliveriesScope, DeliveryClaim, EventStore } from './types';

type Outbox = Pick<EventStore, 'unfannedNotices' | 'fanOutNotices' | 'claimDueDeliveries' | 'recordDeliveryAttempt' | 'listDeliveries' | 'retryDelivery'>;

/** What a delivery shows of its notice. */
const NOTICE_COLUMNS = { notice: { select: { type: true, sessionId: true, ownerId: true } } } as const;

/** The notices a scope sees (backend-rules.ts deliveryVisible, as a query). */
const visibleTo = (scope: DeliveriesScope) =>
  scope.keyHolder ? { OR: [{ ownerId: scope.ownerId }, { ownerId: { startsWith: BROWSER_OWNER_PREFIX } }] } : { ownerId: scope.ownerId };

export function prismaOutbox({ withClient }: PrismaStoreContext): Outbox {
  return {
    unfannedNotices: (options = {}) =>
      withClient(async (db) =>
        (await db.notice.findMany({ where: { fannedOutAt: null }, orderBy: { createdAt: 'asc' }, take: options.limit ?? DEFAULT_LIST_LIMIT })).map(
          noticeFromRow,
        ),
      ),

    fanOutNotices: (fanOuts, now) =>
      withClient(async (db) => {
        let created = 0;
        // One insert each, outside a transaction: a duplicate (another process fanned out first)
        // is a unique violation, which on PostgreSQL would abort a transaction around it.
        for (const { noticeId, targets } of fanOuts) {
          for (const { channel, target } of targets) {
            try {
              await db.delivery.create({ data: { id: deliveryId(noticeId, channel, target), noticeId, channel, target, nextAttemptAt: now, createdAt: now } });
              created++;
            } catch (error) {
              if (!isUniqueViolation(error)) throw error;
            }
          }
        }
        // Marked once every delivery exists: a crash in between leaves the notices to fan out again.
        await db.notice.updateMany({ where: { id: { in: fanOuts.map((fanOut) => fanOut.noticeId) }, fannedOutAt: null }, data: { fannedOutAt: now } });
        return created;
      }),

    claimDueDeliveries: (now, { leaseMs, limit }) =>
      withClient(async (db) => {
        const open = { in: OPEN_DELIVERY_STATUSES };
        const due = await db.delivery.findMany({
          where: { status: open, nextAttemptAt: { lte: now } },
          orderBy: { nextAttemptAt: 'asc' },
          take: limit ?? DEFAULT_LIST_LIMIT,
          include: { notice: true },
        });
        const claims: DeliveryClaim[] = [];
        for (const row of due) {
          const until = new Date(now.getTime() + leaseMs);
          // The compare-and-set: only the claim that finds the attempt count it read moves it on.
          const claimed = await db.delivery.updateMany({
            where: { id: row.id, attempts: row.attempts, status: open, nextAttemptAt: { lte: now } },
            data: { attempts: row.attempts + 1, nextAttemptAt: until },
          });
          if (claimed.count !== 1) continue;
          claims.push({ delivery: deliveryFromRow({ ...row, attempts: row.attempts + 1, nextAttemptAt: until }), notice: noticeFromRow(row.notice) });
        }
        return claims;
      }),

    recordDeliveryAttempt: (deliveryId, attempt, outcome) =>
      withClient(
        async (db) =>
          (
            await db.delivery.updateMany({
              where: { id: deliveryId, attempts: attempt, status: { in: OPEN_DELIVERY_STATUSES } },
              data: deliveryChange(outcome),
            })
          ).count === 1,
      ),

    listDeliveries: (scope, options = {}) =>
      withClient(async (db) =>
        (
          await db.delivery.findMany({
            where: { notice: visibleTo(scope) },
            orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
            take: options.limit ?? DEFAULT_LIST_LIMIT,
            include: NOTICE_COLUMNS,
          })
        ).map(deliveryFromRow),
      ),

    retryDelivery: (deliveryId, scope, now) =>
      withClient(async (db) => {
        const row = await db.delivery.findFirst({ where: { id: deliveryId, notice: visibleTo(scope) }, include: NOTICE_COLUMNS });
        if (!row || !retryable(deliveryFromRow(row))) return null;
        const retried = await db.delivery.updateMany({ where: { id: deliveryId, status: row.status }, data: { status: 'failing', nextAttemptAt: now } });
        return retried.count === 1 ? deliveryFromRow({ ...row, status: 'failing', nextAttemptAt: now }) : null;
      }),
  };
}
