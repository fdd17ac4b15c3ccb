// The outbox's rules on the memory store, with the real webhook channel POSTing to a receiver in
// this process that verifies every signature (docs/approvals.md, "Decision webhooks").
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../store/events';
import { noticeId } from '../../store/notices';
import { createMemoryDatabase } from '../../store/memory-database';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { ChannelEntry } from './channel-entry';
import { deliveryTargets } from './channels';
import { deliverOutbox } from './outbox';
import { webhookChannel } from './webhook-channel';

const SECRET = `whsec_${Buffer.from('a test secret of 32 bytes, ok!!!').toString('base64')}`;
const noAgent = () => undefined;

interface Received {
  headers: IncomingHttpHeaders;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

let server: Server;
let url: string;
let received: Received[] = [];
/** The statuses the receiver answers with, in turn; 204 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      // Throws on a bad signature: the attempt then fails with a 500, which a test would see.
      try {
        const body = new Webhook(SECRET).verify(raw, request.headers as Record<string, string>) as Received['body'];
        received.push({ headers: request.headers, body });
        response.statusCode = answers.shift() ?? 204;
      } catch {
        response.statusCode = 400;
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/stackbone?token=t0ps3cret`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let store: EventStore;
beforeEach(() => {
  store = createMemoryStore();
  received = [];
  answers = [];
  vi.stubEnv('STACKBONE_WEBHOOK_URL', url);
  vi.stubEnv('STACKBONE_WEBHOOK_SECRET', SECRET);
  vi.stubEnv('STACKBONE_DELIVERY_BACKOFF_MS', '1000');
  vi.stubEnv('STACKBONE_DELIVERY_ATTEMPTS', '3');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function sessionWith(events: SessionEvent[], target: EventStore = store) {
  const session = await target.ensureSession({ id: `user-1/${randomUUID()}`, ownerId: 'user-1', agent: 'helpdesk' });
  await target.append(session.id, 0, events);
  return session;
}
const finished: SessionEvent = { type: 'run_finished', runId: 'run-1', outcome: { type: 'success' } };

describe('the outbox', () => {
  it('POSTs each notice, signed per Standard Webhooks under its notice id, as {type, timestamp, data}', async () => {
    const session = await sessionWith([{ type: 'step_started', stepName: 'x' }, finished]);
    const tick = await deliverOutbox(store, noAgent);
    expect(tick).toEqual({ fannedOut: 1, delivered: 1, failed: 0, gaveUp: 0 });
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received as [Received];
    expect(headers['webhook-id']).toBe(noticeId(session.id, 2, 0));
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(headers['content-type']).toBe('application/json');
    const [event] = await store.readEvents(session.id, 1);
    expect(body).toEqual({
      type: 'run.finished',
      timestamp: event!.at,
      data: { runId: 'run-1', outcome: { type: 'success' }, sessionId: session.id.split('/')[1], agent: 'helpdesk', ownerId: 'user-1', at: event!.at },
    });
    const [delivery] = await store.listDeliveries({ ownerId: 'user-1' });
    // The target is the URL's origin: its path and query may hold a token, and Studio shows it.
    expect(delivery).toMatchObject({ channel: 'webhook', target: new URL(url).origin, status: 'delivered', attempts: 1, lastError: null });
    expect(await deliverOutbox(store, noAgent)).toEqual({ fannedOut: 0, delivered: 0, failed: 0, gaveUp: 0 });
  });

  it('retries a failed attempt after its backoff under the same id, and gives up after the configured attempts', async () => {
    const t0 = Date.now();
    const at = (ms: number) => () => new Date(t0 + ms);
    await sessionWith([finished]);
    answers = [503, 500, 503];
    expect(await deliverOutbox(store, noAgent, { now: at(0) })).toMatchObject({ fannedOut: 1, failed: 1 });
    const [first] = await store.listDeliveries({ ownerId: 'user-1' });
    expect(first).toMatchObject({ status: 'failing', attempts: 1, lastError: 'HTTP 503', nextAttemptAt: new Date(t0 + 1000) });
    // Not due before its backoff has passed.
    expect(await deliverOutbox(store, noAgent, { now: at(999) })).toMatchObject({ failed: 0, delivered: 0 });
    expect(await deliverOutbox(store, noAgent, { now: at(1000) })).toMatchObject({ failed: 1 });
    expect((await store.listDeliveries({ ownerId: 'user-1' }))[0]).toMatchObject({ attempts: 2, lastError: 'HTTP 500', nextAttemptAt: new Date(t0 + 6000) });
    expect(await deliverOutbox(store, noAgent, { now: at(6000) })).toMatchObject({ gaveUp: 1 });
    expect((await store.listDeliveries({ ownerId: 'user-1' }))[0]).toMatchObject({ status: 'gave_up', attempts: 3, lastError: 'HTTP 503' });
    expect(await deliverOutbox(store, noAgent, { now: at(10_000_000) })).toMatchObject({ delivered: 0, failed: 0, gaveUp: 0 });
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(received).toHaveLength(3);
  });

  it('an unreachable receiver and a missing secret are failed attempts whose errors hold neither the URL path nor the secret', async () => {
    await sessionWith([finished]);
    vi.stubEnv('STACKBONE_WEBHOOK_SECRET', 'not-a-whsec-secret');
    await deliverOutbox(store, noAgent);
    expect((await store.listDeliveries({ ownerId: 'user-1' }))[0]).toMatchObject({ lastError: 'STACKBONE_WEBHOOK_SECRET is missing or not a whsec_ secret.' });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    vi.stubEnv('STACKBONE_WEBHOOK_URL', `http://127.0.0.1:${port}/private/path?token=t0ps3cret`);
    vi.stubEnv('STACKBONE_WEBHOOK_SECRET', SECRET);
    await sessionWith([finished]);
    await deliverOutbox(store, noAgent);
    const unreachable = (await store.listDeliveries({ ownerId: 'user-1' })).find((delivery) => delivery.target.endsWith(`:${port}`));
    expect(unreachable).toMatchObject({ status: 'failing', lastError: 'network error (ECONNREFUSED)', target: `http://127.0.0.1:${port}` });
    const shown = JSON.stringify(await store.listDeliveries({ ownerId: 'user-1' }));
    for (const secret of ['t0ps3cret', '/private', SECRET, 'not-a-whsec-secret']) expect(shown).not.toContain(secret);
  });

  it('a notice no channel takes is fanned out with no deliveries, and is not sent when a channel is configured later', async () => {
    vi.stubEnv('STACKBONE_WEBHOOK_URL', '');
    await sessionWith([finished]);
    expect(await deliverOutbox(store, noAgent)).toEqual({ fannedOut: 1, delivered: 0, failed: 0, gaveUp: 0 });
    vi.stubEnv('STACKBONE_WEBHOOK_URL', url);
    expect(await deliverOutbox(store, noAgent)).toEqual({ fannedOut: 0, delivered: 0, failed: 0, gaveUp: 0 });
    expect(received).toEqual([]);
  });

  it('two servers on one database send each attempt once', async () => {
    const database = createMemoryDatabase();
    const [one, two] = [createMemoryStore(database), createMemoryStore(database)];
    const sessions = await Promise.all(Array.from({ length: 5 }, () => sessionWith([finished], one)));
    await Promise.all([deliverOutbox(one, noAgent), deliverOutbox(two, noAgent)]);
    expect(received.map((request) => request.headers['webhook-id']).sort()).toEqual(sessions.map((session) => noticeId(session.id, 1, 0)).sort());
  });

  it('fans a notice out to every target of every channel that takes it, each target once', async () => {
    const interruptsOnly: ChannelEntry = {
      name: 'email',
      targetsFor: (notice) => (notice.type.startsWith('interrupt.') ? ['ops@example.com', 'ops@example.com', 'lead@example.com'] : []),
      send: async () => {},
    };
    const channels = [webhookChannel, interruptsOnly];
    const base = { sessionId: 's', agent: 'helpdesk', ownerId: 'user-1', at: new Date().toISOString(), data: {} };
    const store = createMemoryStore();
    expect(await deliveryTargets({ ...base, id: 'msg_1', type: 'run.finished' }, undefined, store, channels)).toEqual([
      { channel: 'webhook', target: new URL(url).origin },
    ]);
    expect(await deliveryTargets({ ...base, id: 'msg_2', type: 'interrupt.opened' }, undefined, store, channels)).toEqual([
      { channel: 'webhook', target: new URL(url).origin },
      { channel: 'email', target: 'ops@example.com' },
      { channel: 'email', target: 'lead@example.com' },
    ]);
  });
});
