// Decision webhooks against real servers (docs/approvals.md, "Decision webhooks"): one `next start`
// per database kind with STACKBONE_WEBHOOK_URL pointing at a receiver in this file, which verifies
// every request's Standard Webhooks signature and answers as each session's plan says. A pause and
// its decision reach it as interrupt.opened and interrupt.decided, each run as run.finished; a
// receiver that fails twice gets the third attempt under the same webhook-id; one that always
// fails is given up after the configured attempts, which Studio's deliveries show, and Retry now
// sends once more.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryItem, DeliveryList } from '../../server/contract';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const SECRET = `whsec_${Buffer.from('stackbone webhook test secret!!!').toString('base64')}`;
const ATTEMPTS = 3;

interface Delivered {
  id: string;
  type: string;
  data: Record<string, unknown> & { sessionId: string };
  /** What the receiver answered this request with. */
  answered: number;
}

/** How the receiver answers a session's notices: `flaky` fails each twice, `dead` always. */
type Plan = 'ok' | 'flaky' | 'dead';

/** A webhook receiver on an ephemeral port: only requests that pass Webhook.verify are recorded. */
async function startReceiver() {
  const verifier = new Webhook(SECRET);
  const received: Delivered[] = [];
  const plans = new Map<string, Plan>();
  const rejected: string[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      let payload: { type: string; data: Delivered['data'] };
      try {
        payload = verifier.verify(raw, request.headers as Record<string, string>) as typeof payload;
      } catch (error) {
        rejected.push(String(error));
        response.writeHead(400).end();
        return;
      }
      const id = String(request.headers['webhook-id']);
      const plan = plans.get(payload.data.sessionId) ?? 'ok';
      const tries = received.filter((entry) => entry.id === id).length;
      const answered = plan === 'dead' || (plan === 'flaky' && tries < 2) ? 500 : 204;
      received.push({ id, type: payload.type, data: payload.data, answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stackbone`,
    received,
    rejected,
    plans,
    of: (sessionId: string) => received.filter((entry) => entry.data.sessionId === sessionId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Backend {
  kind: 'sqlite' | 'postgres';
  server: TestServer;
  receiver: Receiver;
}

const backends: Backend[] = [];
const postgres = await postgresReachable();

beforeAll(async () => {
  const ledgers = await mkdtemp(path.join(os.tmpdir(), 'stackbone-webhooks-'));
  const start = async (kind: Backend['kind'], port: number, databaseUrl: Promise<string>): Promise<Backend> => {
    const receiver = await startReceiver();
    const server = await startServer({
      port,
      databaseUrl: await databaseUrl,
      env: {
        ...fixtureEnv(path.join(ledgers, `${kind}.jsonl`)),
        STACKBONE_WEBHOOK_URL: receiver.url,
        STACKBONE_WEBHOOK_SECRET: SECRET,
        STACKBONE_OUTBOX_MS: '100',
        STACKBONE_DELIVERY_BACKOFF_MS: '100',
        STACKBONE_DELIVERY_ATTEMPTS: String(ATTEMPTS),
      },
    });
    return { kind, server, receiver };
  };
  backends.push(
    ...(await Promise.all([start('sqlite', 3301, freshSqliteUrl()), ...(postgres ? [start('postgres', 3302, freshPostgresUrl('stackbone_webhooks'))] : [])])),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(backends.map(async ({ server, receiver }) => Promise.all([server.kill(), receiver.close()])));
});

async function deliveriesOf(url: string, sessionId: string): Promise<DeliveryItem[]> {
  const list = (await (await fetch(`${url}/api/studio/deliveries`)).json()) as DeliveryList;
  return list.deliveries.filter((delivery) => delivery.sessionId === sessionId);
}

// Every test has its own session and its receiver answers by session: they all run at once.
describe.concurrent('decision webhooks', () => {
  for (const kind of ['sqlite', 'postgres'] as const) {
    describe.skipIf(kind === 'postgres' && !postgres)(`on ${kind}`, () => {
      const backend = () => backends.find((candidate) => candidate.kind === kind)!;

      it('a pause, its decision and both runs reach the receiver signed, as interrupt.opened, interrupt.decided and run.finished', async () => {
        const { server, receiver } = backend();
        const threadId = randomUUID();
        await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] });
        const opened = await eventually(async () => receiver.of(threadId).find((entry) => entry.type === 'interrupt.opened'), 10_000, 'interrupt.opened');
        const interrupt = opened.data.interrupt as { id: string; toolName: string; input: unknown; message: string; expiresAt: string };
        expect(interrupt).toMatchObject({ toolName: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 }, message: 'Refund $19.99 on order po_42' });
        expect(Date.parse(interrupt.expiresAt)).toBeGreaterThan(Date.now());
        expect(opened.data).toMatchObject({ sessionId: threadId, agent: 'helpdesk', ownerId: expect.any(String), at: expect.any(String) });

        const decided = await fetch(`${server.url}/api/hitl/${interrupt.id}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(decided.status).toBe(200);
        const types = await eventually(
          async () => {
            const seen = receiver.of(threadId).map((entry) => entry.type);
            return seen.filter((type) => type === 'run.finished').length === 2 && seen.includes('interrupt.decided') ? seen : undefined;
          },
          10_000,
          'the decision and the second run',
        );
        expect(types.indexOf('interrupt.opened')).toBeLessThan(types.indexOf('interrupt.decided'));
        const entries = receiver.of(threadId);
        expect(entries.find((entry) => entry.type === 'interrupt.decided')!.data).toMatchObject({
          interruptId: interrupt.id,
          decision: { status: 'approved', by: { source: 'hitl' } },
        });
        expect(entries.filter((entry) => entry.type === 'run.finished').map((entry) => (entry.data.outcome as { type: string }).type)).toEqual([
          'interrupt',
          'success',
        ]);
        // Each notice once, under its own id; none refused by the signature check.
        expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
        expect(entries.every((entry) => /^msg_/.test(entry.id) && entry.answered === 204)).toBe(true);
        expect(receiver.rejected).toEqual([]);
      });

      it('a receiver that fails twice gets the notice on the third attempt, under the same webhook-id each time', async () => {
        const { server, receiver } = backend();
        const threadId = randomUUID();
        receiver.plans.set(threadId, 'flaky');
        await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('say 3 words')] });
        const [delivery] = await eventually(
          async () => {
            const shown = await deliveriesOf(server.url, threadId);
            return shown[0]?.status === 'delivered' ? shown : undefined;
          },
          10_000,
          'the delivery',
        );
        const attempts = receiver.of(threadId);
        expect(attempts.map((entry) => [entry.type, entry.answered])).toEqual([
          ['run.finished', 500],
          ['run.finished', 500],
          ['run.finished', 204],
        ]);
        expect(new Set(attempts.map((entry) => entry.id))).toEqual(new Set([delivery!.noticeId]));
        expect(delivery).toMatchObject({ noticeType: 'run.finished', channel: 'webhook', target: new URL(receiver.url).origin, attempts: 3, lastError: null });
      });

      it('a receiver that always fails is given up after the configured attempts, Studio shows it, and Retry now sends once more', async () => {
        const { server, receiver } = backend();
        const threadId = randomUUID();
        receiver.plans.set(threadId, 'dead');
        await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('say 3 words')] });
        const [gaveUp] = await eventually(
          async () => {
            const shown = await deliveriesOf(server.url, threadId);
            return shown[0]?.status === 'gave_up' ? shown : undefined;
          },
          10_000,
          'the delivery to be given up',
        );
        expect(gaveUp).toMatchObject({ noticeType: 'run.finished', channel: 'webhook', attempts: ATTEMPTS, lastError: 'HTTP 500', deliveredAt: null });
        expect(receiver.of(threadId)).toHaveLength(ATTEMPTS);

        const retried = await fetch(`${server.url}/api/studio/deliveries/${gaveUp!.id}/retry`, { method: 'POST' });
        expect(retried.status).toBe(200);
        await eventually(async () => receiver.of(threadId).length === ATTEMPTS + 1, 10_000, 'the retry');
        const [after] = await eventually(
          async () => {
            const shown = await deliveriesOf(server.url, threadId);
            return shown[0]?.status === 'gave_up' ? shown : undefined;
          },
          10_000,
          'the retry to be given up again',
        );
        expect(after).toMatchObject({ attempts: ATTEMPTS + 1, lastError: 'HTTP 500' });
        expect(new Set(receiver.of(threadId).map((entry) => entry.id)).size).toBe(1);
        // The cron route makes a pass too (Vercel's path), answering what it did.
        const pass = await fetch(`${server.url}/api/cron/outbox`);
        expect(pass.status).toBe(200);
        expect(await pass.json()).toEqual({
          fannedOut: expect.any(Number),
          delivered: expect.any(Number),
          failed: expect.any(Number),
          gaveUp: expect.any(Number),
          ms: expect.any(Number),
        });
        // Only a failing or given-up delivery is retried; another is not found.
        expect((await fetch(`${server.url}/api/studio/deliveries/dlv_nope/retry`, { method: 'POST' })).status).toBe(404);
      });
    });
  }
});
