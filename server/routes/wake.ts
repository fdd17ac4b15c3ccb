// POST /api/wake: where Vercel Queues delivers each wake this server asked for (docs/deploy.md,
// "Due work"; vercel.json declares the trigger). The SDK's own callback handling takes the
// delivery — it acknowledges it once the work is done, and a failure is delivered again — and the
// route first refuses anything that is not a queue delivery of a wake this server signed
// (server/wake/wake-message.ts): the URL is public. A wake that comes early, or further out than
// the queue's delay limit, is sent on for the rest of its wait; one that is due runs its work
// (server/runtime/wake/run-due.ts) and asks to be woken for what that work left due later.
import type { MessageMetadata } from '@vercel/queue';
import { findAgent } from '../agents';
import { setting } from '../config';
import { HttpError, jsonError } from '../http/errors';
import { runDue } from '../runtime';
import { getStore, settleWakes } from '../store';
import { sendWake, verifiedWake, wakeQueue } from '../wake';

/** The CloudEvent type of a Vercel Queues push (binary mode: the message is the body). */
const QUEUE_DELIVERY = 'com.vercel.queue.v2beta';
/** A wake's body is a few hundred bytes; anything much longer is not one. */
const MAX_WAKE_BYTES = 4_096;

/** One delivered wake, after the route checked it: sent on if early, else run (its runs awaited, so the delivery is acknowledged once they end). */
async function consume(message: unknown, metadata: MessageMetadata): Promise<void> {
  const wake = verifiedWake(message);
  if (!wake) throw new Error('A delivery carried no wake this server signed.');
  if (wake.at.getTime() > Date.now()) {
    await sendWake(wake, metadata.messageId);
    return;
  }
  const work = await runDue(getStore(), findAgent, wake);
  await Promise.all(work.later.map((later) => sendWake(later)));
  await settleWakes();
  await work.done;
}

/** Redeliveries of a wake that failed: 5 s, 10 s, 20 s … up to 5 minutes. */
function retry(_error: unknown, metadata: MessageMetadata) {
  return { afterSeconds: Math.min(300, 5 * 2 ** Math.max(0, metadata.deliveryCount - 1)) };
}

let callback: Promise<(request: Request) => Promise<Response>> | undefined;

export async function handleWake(request: Request): Promise<Response> {
  if (setting('STACKBONE_WAKER') !== 'vercel-queue')
    return jsonError(
      new HttpError('not_found', 'This server wakes due work with its own loops (STACKBONE_WAKER=loop): it takes no queue deliveries.', { what: 'endpoint' }),
    );
  const body = await request.text();
  const delivered = request.headers.get('ce-type') === QUEUE_DELIVERY && request.headers.has('ce-vqsreceipthandle') && body.length <= MAX_WAKE_BYTES;
  if (!delivered || !verifiedWake(parsed(body)))
    return jsonError(new HttpError('not_a_wake', 'Only a queue delivery of a wake this server sent is taken here (docs/deploy.md, "Due work").'));
  callback ??= wakeQueue().then((queue) => queue.handleCallback(consume, { retry }));
  return (await callback)(new Request(request.url, { method: 'POST', headers: request.headers, body }));
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
