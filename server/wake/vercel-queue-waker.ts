// The vercel-queue adapter of the Waker port (waker.ts; docs/deploy.md, "Due work"): each wake is
// one Vercel Queues message on the topic WAKE_TOPIC, sent with `delaySeconds` so that the queue
// delivers it at its time to POST /api/wake (vercel.json declares the trigger), and with an
// idempotency key, so that the same wake asked for twice is one message.
//
// The limits of @vercel/queue 0.6 (its README, "Service Limits & Constraints"): `delaySeconds` at
// most 604,800 (7 days) and never past the message's retention, itself at most 7 days;
// idempotency keys up to 256 characters, deduplicated for min(retention, 24 h). A wake further out
// than MAX_DELAY_S is sent for MAX_DELAY_S and sent on again when it arrives, until it is due.
import { createHash } from 'node:crypto';
import type { QueueClient } from '@vercel/queue';
import { setting } from '../config';
import { wakeMessage } from './wake-message';
import type { Wake, Waker } from './waker';

/** The topic wakes travel on; vercel.json's trigger for app/api/wake/route.ts names it. */
export const WAKE_TOPIC = 'stackbone-wake';
/** The longest retention the queue keeps a message. */
const RETENTION_S = 604_800;
/** Six days, as seed 004's setReminder caps its delay: a day of retention is left for redeliveries. */
export const MAX_DELAY_S = 6 * 86_400;

let client: Promise<QueueClient> | undefined;

/**
 * The process's queue client: region from VERCEL_REGION and an OIDC token, both set by Vercel;
 * STACKBONE_QUEUE_URL points it at another address (a proxy; the suite's stand-in). Imported on
 * first use: a server whose waker is the loop never loads the SDK.
 */
export function wakeQueue(): Promise<QueueClient> {
  const url = setting('STACKBONE_QUEUE_URL');
  client ??= import('@vercel/queue').then(({ QueueClient }) => new QueueClient(url ? { resolveBaseUrl: () => new URL(url) } : {}));
  return client;
}

/** Whole seconds until `at`, at least 0 and at most MAX_DELAY_S. */
export function delaySecondsUntil(at: Date, now = Date.now()): number {
  return Math.min(MAX_DELAY_S, Math.max(0, Math.ceil((at.getTime() - now) / 1000)));
}

/**
 * Sends a wake. `resentFrom`: the delivery it is sent on from (one that came early, or a wake
 * further out than the delay limit) — each delivery sends it on once, however often it is redelivered.
 */
export async function sendWake(wake: Wake, resentFrom?: string): Promise<void> {
  const idempotencyKey = createHash('sha256')
    .update(JSON.stringify([wake.kind, wake.key, wake.at.toISOString(), resentFrom ?? null]))
    .digest('hex');
  await (await wakeQueue()).send(WAKE_TOPIC, wakeMessage(wake), { delaySeconds: delaySecondsUntil(wake.at), retentionSeconds: RETENTION_S, idempotencyKey });
}

export const vercelQueueWaker: Waker = { wake: (wake) => sendWake(wake) };
