// The outbox of a memory store (docs/approvals.md, "Notifications and one-click links"): notices
// fanned out to their channels' deliveries, claimed when due, retried — the rules the database
// stores keep too (backend-rules.ts; prisma-outbox.ts is their twin over Prisma).
import { DEFAULT_LIST_LIMIT, deliveryChange, deliveryId, deliveryVisible, OPEN_DELIVERY_STATUSES, retryable } from './backend-rules';
import { compareText, type MemoryDatabase } from './memory-database';
import type { DeliveriesScope, DeliveryClaim, DeliveryOutcome, EventStore, NoticeFanOut } from './types';

type Outbox = Pick<EventStore, 'unfannedNotices' | 'fanOutNotices' | 'claimDueDeliveries' | 'recordDeliveryAttempt' | 'listDeliveries' | 'retryDelivery'>;

export function memoryOutbox({ notices, deliveries }: Pick<MemoryDatabase, 'notices' | 'deliveries'>): Outbox {
  return {
    async unfannedNotices(options: { limit?: number } = {}) {
      return [...notices.values()]
        .filter((row) => row.fannedOutAt === null)
        .sort((a, b) => Date.parse(a.notice.at) - Date.parse(b.notice.at))
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
        .map((row) => structuredClone(row.notice));
    },
    async fanOutNotices(fanOuts: NoticeFanOut[], now: Date) {
      // Every notice found before any delivery is made.
      const found = fanOuts.map((fanOut) => {
        const row = notices.get(fanOut.noticeId);
        if (!row) throw new Error(`No notice ${fanOut.noticeId}.`);
        return { ...fanOut, row };
      });
      let created = 0;
      for (const { noticeId, targets, row } of found) {
        const { notice } = row;
        for (const { channel, target } of targets) {
          const id = deliveryId(noticeId, channel, target);
          if (deliveries.has(id)) continue;
          deliveries.set(id, {
            id,
            noticeId,
            noticeType: notice.type,
            sessionId: notice.sessionId,
            ownerId: notice.ownerId,
            channel,
            target,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lastError: null,
            deliveredAt: null,
            createdAt: now,
          });
          created++;
        }
      }
      for (const { row } of found) row.fannedOutAt ??= now;
      return created;
    },
    async claimDueDeliveries(now: Date, options: { leaseMs: number; limit?: number }) {
      const due = [...deliveries.values()]
        .filter((delivery) => OPEN_DELIVERY_STATUSES.includes(delivery.status) && delivery.nextAttemptAt.getTime() <= now.getTime())
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT);
      return due.map((delivery): DeliveryClaim => {
        delivery.attempts++;
        delivery.nextAttemptAt = new Date(now.getTime() + options.leaseMs);
        return { delivery: structuredClone(delivery), notice: structuredClone(notices.get(delivery.noticeId)!.notice) };
      });
    },
    async recordDeliveryAttempt(id: string, attempt: number, outcome: DeliveryOutcome) {
      const delivery = deliveries.get(id);
      if (!delivery || delivery.attempts !== attempt || !OPEN_DELIVERY_STATUSES.includes(delivery.status)) return false;
      Object.assign(delivery, deliveryChange(outcome));
      return true;
    },
    async listDeliveries(scope: DeliveriesScope, options: { limit?: number } = {}) {
      return [...deliveries.values()]
        .filter((delivery) => deliveryVisible(delivery.ownerId, scope))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || compareText(a.id, b.id))
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
        .map((delivery) => structuredClone(delivery));
    },
    async retryDelivery(id: string, scope: DeliveriesScope, now: Date) {
      const delivery = deliveries.get(id);
      if (!delivery || !deliveryVisible(delivery.ownerId, scope) || !retryable(delivery)) return null;
      Object.assign(delivery, { status: 'failing', nextAttemptAt: now });
      return structuredClone(delivery);
    },
  };
}
