// POST /api/wake in-process, against the queue stand-in (tests/support/queue-service.ts): a wake
// further out than the queue's delay limit is sent for six days and sent on at delivery until it
// is due (docs/deploy.md, "Due work"), once per delivery however often it is redelivered.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startQueueService, type QueueService } from '../../tests/support/queue-service';
import { MAX_DELAY_S, delaySecondsUntil, sendWake } from '../wake/vercel-queue-waker';
import { verifiedWake, wakeMessage } from '../wake/wake-message';
import { handleWake } from './wake';

const TOKEN = 'header.eyJleHAiOjQxMDI0NDQ4MDB9.signature'; // exp: 2100
const DAY_MS = 86_400_000;
let queue: QueueService;
let route: Server;

beforeAll(async () => {
  route = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await handleWake(
      new Request(`http://127.0.0.1${request.url}`, { method: 'POST', headers: request.headers as Record<string, string>, body: Buffer.concat(chunks) }),
    );
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
  queue = await startQueueService({ consumerUrl: () => `http://127.0.0.1:${(route.address() as AddressInfo).port}/api/wake`, token: TOKEN });
  vi.stubEnv('STACKBONE_WAKER', 'vercel-queue');
  vi.stubEnv('STACKBONE_QUEUE_URL', queue.url);
  vi.stubEnv('STACKBONE_SECRET', `secret-${randomUUID()}-${randomUUID()}`);
  vi.stubEnv('VERCEL_OIDC_TOKEN', TOKEN);
  vi.stubEnv('VERCEL_DEPLOYMENT_ID', 'dpl_unit');
});

afterAll(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  await queue.close();
  await new Promise<void>((resolve) => route.close(() => resolve()));
});

describe('a wake', () => {
  it('is signed for this server: another key, kind or time does not verify', () => {
    const message = wakeMessage({ kind: 'session', key: 's-1', at: new Date('2027-01-01T00:00:00Z') });
    expect(verifiedWake(message)).toEqual({ kind: 'session', key: 's-1', at: new Date('2027-01-01T00:00:00Z') });
    expect(verifiedWake({ ...message, key: 's-2' })).toBeNull();
    expect(verifiedWake({ ...message, kind: 'timer' })).toBeNull();
    expect(verifiedWake({ ...message, at: '2027-01-02T00:00:00.000Z' })).toBeNull();
    expect(verifiedWake({ ...message, sig: message.sig.slice(1) })).toBeNull();
    expect(verifiedWake('not an object')).toBeNull();
  });

  it('waits at most six days in the queue, in whole seconds', () => {
    const now = Date.now();
    expect(delaySecondsUntil(new Date(now + 1_200), now)).toBe(2);
    expect(delaySecondsUntil(new Date(now - 5_000), now)).toBe(0);
    expect(delaySecondsUntil(new Date(now + 9 * DAY_MS), now)).toBe(MAX_DELAY_S);
    expect(MAX_DELAY_S).toBe(518_400);
  });

  it('further out than the delay limit is sent for six days, then sent on at each delivery for the rest, once per delivery', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const wake = { kind: 'session' as const, key: `s-${randomUUID()}`, at: new Date(start + 8 * DAY_MS) };
    await sendWake(wake);
    expect(queue.sent.map((send) => send.delaySeconds)).toEqual([MAX_DELAY_S]);

    // Six days on, the queue delivers it — twice, as it may: the rest of the wait (two days) is sent once.
    vi.setSystemTime(start + 6 * DAY_MS);
    await vi.waitFor(() => expect(queue.deliveries.filter((delivery) => delivery.status === 200)).toHaveLength(1), { timeout: 5_000 });
    const first = queue.deliveries[0]!;
    expect(first.wake).toMatchObject({ kind: 'session', key: wake.key });
    expect(queue.sent.slice(1).map((send) => send.delaySeconds)).toEqual([2 * 86_400]);
    const resent = queue.sent[1]!.key;

    // Delivered again (at least once): sent on under the same idempotency key, which the queue keeps as one message.
    const again = await handleWake(
      new Request('http://127.0.0.1/api/wake', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'ce-type': 'com.vercel.queue.v2beta',
          'ce-vqsqueuename': 'stackbone-wake',
          'ce-vqsconsumergroup': 'g',
          'ce-vqsmessageid': first.messageId,
          'ce-vqsreceipthandle': 'stale',
        },
        body: JSON.stringify(first.wake),
      }),
    );
    expect(queue.sent.at(-1)!.key).toBe(resent);
    expect([200, 500]).toContain(again.status); // the stale receipt's acknowledgement is the queue's to refuse
    vi.useRealTimers();
  });

  it('is refused unless it is a queue delivery of a signed wake, and on a server whose loops wake due work', async () => {
    const signed = JSON.stringify(wakeMessage({ kind: 'outbox', key: 'n-1', at: new Date() }));
    const plain = await handleWake(new Request('http://127.0.0.1/api/wake', { method: 'POST', body: signed }));
    expect(plain.status).toBe(401);
    expect(await plain.json()).toMatchObject({ error: { code: 'not_a_wake' } });
    vi.stubEnv('STACKBONE_WAKER', 'loop');
    const off = await handleWake(new Request('http://127.0.0.1/api/wake', { method: 'POST', body: signed }));
    expect(off.status).toBe(404);
    vi.stubEnv('STACKBONE_WAKER', 'vercel-queue');
  });
});
