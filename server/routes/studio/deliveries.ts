// GET /api/studio/deliveries: the outbox's recent deliveries for Studio (docs/approvals.md,
// "Decision webhooks"), scoped as Studio's inbox is: the caller's own sessions', and for a key
// holder the browsers' sessions' too. POST /api/studio/deliveries/{id}/retry: Retry now, for a
// delivery that is failing or was given up.
import type { DeliveryItem, DeliveryList } from '../../contract';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveCaller } from '../../identity/owner';
import type { DeliveryRecord } from '../../store/notices';
import { keptEmails, sessionKeyOf, type KeptEmail } from '../../runtime';
import { getStore } from '../../store';
import type { DeliveriesScope } from '../../store/types';
import { jsonResponse } from '../../http/small-answers';

const LISTED = 100;

async function scopeOf(request: Request): Promise<DeliveriesScope> {
  const caller = await resolveCaller(request, { member: true });
  return { ownerId: caller.ownerId, keyHolder: caller.credential === 'key' };
}

function itemOf(delivery: DeliveryRecord, unsent: KeptEmail[] = []): DeliveryItem {
  // Kept in this process's memory: what a server without SMTP built instead of mailing it.
  const kept = delivery.channel === 'email' ? unsent.find((email) => email.noticeId === delivery.noticeId && email.to === delivery.target) : undefined;
  return {
    id: delivery.id,
    noticeId: delivery.noticeId,
    noticeType: delivery.noticeType,
    sessionId: sessionKeyOf(delivery.sessionId),
    channel: delivery.channel,
    target: delivery.target,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt.toISOString(),
    lastError: delivery.lastError,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    ...(kept ? { kept: { subject: kept.subject, decides: kept.decides, ...(kept.file ? { file: kept.file } : {}) } } : {}),
  };
}

export async function handleDeliveryList(request: Request): Promise<Response> {
  try {
    const deliveries = await getStore().listDeliveries(await scopeOf(request), { limit: LISTED });
    const unsent = keptEmails();
    return jsonResponse({ deliveries: deliveries.map((delivery) => itemOf(delivery, unsent)) } satisfies DeliveryList, {
      headers: { 'Cache-Control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error, 'deliveries request');
  }
}

export async function handleDeliveryRetry(request: Request, deliveryId: string): Promise<Response> {
  try {
    const retried = await getStore().retryDelivery(deliveryId, await scopeOf(request), new Date());
    if (!retried) throw new HttpError('not_found', `No failing or given-up delivery "${deliveryId}".`, { what: 'delivery' });
    return jsonResponse(itemOf(retried));
  } catch (error) {
    return errorResponse(error, 'delivery retry');
  }
}
