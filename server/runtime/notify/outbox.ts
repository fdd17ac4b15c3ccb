// The outbox's dispatcher (docs/approvals.md, "Decision webhooks"): it fans each new notice out
// into one delivery per channel target (channels.ts), then sends the deliveries that are due, each
// attempt claimed in the store so that no two processes send it at once. At least once: an attempt
// whose outcome was lost (a crash, a timeout the receiver did not see) is sent again under the same
// notice id, which is the receiver's idempotency key. Driven by a loop under `npm start` and by the
// cron route /api/cron/outbox on hosts without a long-lived process.
import type { FindAgent } from '../../authoring';
import type { DeliveryClaim, EventStore, NoticeFanOut } from '../../store/types';
import { startBackgroundLoop } from '../common';
import type { ChannelEntry } from './channel-entry';
import { CHANNELS, deliveryTargets } from './channels';
import { afterFailure, backoffSettings } from './delivery-backoff';

/** How long a claimed attempt holds its delivery: well past a send's 10 s timeout. */
const ATTEMPT_LEASE_MS = 60_000;
/** Notices fanned out and attempts made per tick; the next tick takes the rest. */
const BATCH = 50;

export interface OutboxTick {
  /** Notices given their deliveries (or none). */
  fannedOut: number;
  delivered: number;
  /** Attempts that failed and will be tried again. */
  failed: number;
  /** Attempts that failed for the last time. */
  gaveUp: number;
}

export interface OutboxOptions {
  channels?: readonly ChannelEntry[];
  now?: () => Date;
}

/** One pass: fans new notices out, then makes the due attempts, all at once. Cheap when there is nothing to do: two indexed reads. */
export async function deliverOutbox(store: EventStore, findAgent: FindAgent, options: OutboxOptions = {}): Promise<OutboxTick> {
  const channels = options.channels ?? CHANNELS;
  const now = options.now ?? (() => new Date());
  const tick: OutboxTick = { fannedOut: 0, delivered: 0, failed: 0, gaveUp: 0 };
  const fanOuts: NoticeFanOut[] = [];
  for (const notice of await store.unfannedNotices({ limit: BATCH })) {
    fanOuts.push({ noticeId: notice.id, targets: await deliveryTargets(notice, findAgent(notice.agent), store, channels) });
  }
  // One write marks the tick's notices, most of which no channel takes (every run's end is one).
  if (fanOuts.length > 0) await store.fanOutNotices(fanOuts, now());
  tick.fannedOut = fanOuts.length;
  const claims = await store.claimDueDeliveries(now(), { leaseMs: ATTEMPT_LEASE_MS, limit: BATCH });
  const outcomes = await Promise.all(claims.map((claim) => attempt(store, claim, channels, now, findAgent)));
  for (const status of outcomes) {
    if (status === 'delivered') tick.delivered++;
    else if (status === 'failing') tick.failed++;
    else if (status === 'gave_up') tick.gaveUp++;
  }
  return tick;
}

/** Sends one claimed attempt and records how it ended; null if a later claim took the delivery meanwhile. */
async function attempt(store: EventStore, { delivery, notice }: DeliveryClaim, channels: readonly ChannelEntry[], now: () => Date, findAgent: FindAgent) {
  const channel = channels.find((entry) => entry.name === delivery.channel);
  try {
    if (!channel) throw new Error(`This server has no ${delivery.channel} channel.`);
    await channel.send(notice, delivery.target, findAgent(notice.agent), store);
    return (await store.recordDeliveryAttempt(delivery.id, delivery.attempts, { status: 'delivered', at: now() })) ? 'delivered' : null;
  } catch (error) {
    const outcome = afterFailure(delivery.attempts, error instanceof Error ? error.message : String(error), now(), backoffSettings());
    return (await store.recordDeliveryAttempt(delivery.id, delivery.attempts, outcome)) ? outcome.status : null;
  }
}

/** Runs the outbox now and every intervalMs; a pass never overlaps the last. Returns a stop function. */
export function startOutboxLoop(store: EventStore, findAgent: FindAgent, intervalMs: number): () => void {
  return startBackgroundLoop('outbox', intervalMs, () => deliverOutbox(store, findAgent));
}
