// A stand-in for the Vercel Queue Service at its HTTP boundary (docs/deploy.md, "Due work"): the
// service cannot be reached from this machine, so the rehearsal runs the real @vercel/queue client
// in the server against this. It answers the calls the SDK (0.6) makes — send
// (`POST /api/v3/topic/{topic}`, with Vqs-Delay-Seconds and Vqs-Idempotency-Key), acknowledge
// (`DELETE …/consumer/{group}/lease/{receipt}`) and change visibility (`PATCH …`, a retry's
// delay) — checks the bearer token, and pushes each message to the consumer route when it is
// due, as the service does: a binary CloudEvent (`ce-type: com.vercel.queue.v2beta`, the `ce-vqs*`
// headers) with the message as the body. At least once and no better, as the service promises:
// `chaos` sends a second copy of some deliveries at once, some early, and the order of those due
// together is shuffled; a delivery the route fails or cannot take (the server is down) comes
// again after `retryMs`.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface QueuedMessage {
  id: string;
  topic: string;
  body: Buffer;
  contentType: string;
  createdAt: Date;
  dueAt: number;
  deliveries: number;
  acknowledged: boolean;
  /** A delivery is out and not yet answered. */
  inFlight: boolean;
  /** How much before it is due its first delivery goes out (chaos). */
  earlyBy: number;
}

interface DeliveryRecord {
  messageId: string;
  /** The wake the message carried, as sent. */
  wake: { kind: string; key: string; at: string };
  deliveredAt: number;
  status: number;
  early: boolean;
  duplicate: boolean;
}

export interface QueueServiceOptions {
  /** The consumer route the service pushes to. */
  consumerUrl: () => string;
  token: string;
  /** How soon a delivery the route failed, or could not take, comes again. */
  retryMs?: number;
  /** Every nth delivery is sent twice at once; every nth message's first delivery goes `earlyMs` before it is due. */
  chaos?: { duplicateEvery: number; earlyEvery: number; earlyMs: number };
}

const CONSUMER_GROUP = 'app_Sapi_Swake_Sroute_Dts';

export async function startQueueService(options: QueueServiceOptions) {
  const retryMs = options.retryMs ?? 1_000;
  const messages = new Map<string, QueuedMessage>();
  const byIdempotencyKey = new Map<string, string>();
  const receipts = new Map<string, string>();
  const deliveries: DeliveryRecord[] = [];
  const sent: { key: string | null; delaySeconds: number; at: number }[] = [];
  const refused: string[] = [];

  async function deliver(message: QueuedMessage, how: { early: boolean; duplicate: boolean }) {
    message.deliveries++;
    const receipt = randomUUID();
    receipts.set(receipt, message.id);
    const record: DeliveryRecord = {
      messageId: message.id,
      wake: JSON.parse(message.body.toString()) as DeliveryRecord['wake'],
      deliveredAt: Date.now(),
      status: 0,
      ...how,
    };
    deliveries.push(record);
    try {
      const response = await fetch(options.consumerUrl(), {
        method: 'POST',
        headers: {
          'content-type': message.contentType,
          'ce-type': 'com.vercel.queue.v2beta',
          'ce-vqsqueuename': message.topic,
          'ce-vqsconsumergroup': CONSUMER_GROUP,
          'ce-vqsmessageid': message.id,
          'ce-vqsreceipthandle': receipt,
          'ce-vqsdeliverycount': String(message.deliveries),
          'ce-vqscreatedat': message.createdAt.toISOString(),
        },
        body: new Uint8Array(message.body),
      });
      record.status = response.status;
      await response.text();
    } catch {
      record.status = -1; // the server is down
    }
    if (!message.acknowledged && !how.duplicate) {
      if (record.status < 200 || record.status >= 300) message.dueAt = Math.max(message.dueAt, Date.now() + retryMs);
      message.inFlight = false;
    }
  }

  const tick = setInterval(() => {
    const now = Date.now();
    const chaos = options.chaos;
    const due = [...messages.values()].filter((message) => {
      if (message.acknowledged || message.inFlight) return false;
      return message.dueAt - (message.deliveries === 0 ? message.earlyBy : 0) <= now;
    });
    for (const message of due.sort(() => Math.random() - 0.5)) {
      message.inFlight = true;
      const early = message.dueAt > now;
      void deliver(message, { early, duplicate: false });
      if (chaos && deliveries.length % chaos.duplicateEvery === 0) void deliver(message, { early, duplicate: true });
    }
  }, 50);

  const read = (request: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks)));
    });

  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      refused.push(`${request.method} ${request.url}`);
      response.writeHead(401).end('invalid token');
      return;
    }
    const path = new URL(request.url!, 'http://queue').pathname.split('/').map(decodeURIComponent);
    // ['', 'api', 'v3', 'topic', topic, ('consumer', group, 'lease', receipt)?]
    if (request.method === 'POST' && path.length === 5 && path[3] === 'topic') {
      const key = (request.headers['vqs-idempotency-key'] as string | undefined) ?? null;
      const delaySeconds = Number(request.headers['vqs-delay-seconds'] ?? 0);
      sent.push({ key, delaySeconds, at: Date.now() });
      const existing = key ? byIdempotencyKey.get(key) : undefined;
      if (existing) {
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ messageId: existing }));
        return;
      }
      const id = randomUUID();
      messages.set(id, {
        id,
        topic: path[4]!,
        body,
        contentType: String(request.headers['content-type'] ?? 'application/json'),
        createdAt: new Date(),
        dueAt: Date.now() + delaySeconds * 1000,
        deliveries: 0,
        acknowledged: false,
        inFlight: false,
        earlyBy: options.chaos && messages.size % options.chaos.earlyEvery === 0 ? options.chaos.earlyMs : 0,
      });
      if (key) byIdempotencyKey.set(key, id);
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ messageId: id }));
      return;
    }
    if (path[5] === 'consumer' && path[7] === 'lease') {
      const message = messages.get(receipts.get(path[8]!) ?? '');
      if (!message) return void response.writeHead(404).end('no such receipt');
      if (message.acknowledged) return void response.writeHead(409).end('already processed');
      if (request.method === 'DELETE') {
        message.acknowledged = true;
        return void response.writeHead(204).end();
      }
      if (request.method === 'PATCH') {
        const { visibilityTimeoutSeconds } = JSON.parse(body.toString()) as { visibilityTimeoutSeconds: number };
        message.dueAt = Date.now() + visibilityTimeoutSeconds * 1000;
        return void response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every push made, in order, with how the route answered. */
    deliveries,
    /** Every send the SDK made (an idempotent repeat included). */
    sent,
    /** Calls refused for a wrong token. */
    refused,
    close: () => {
      clearInterval(tick);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type QueueService = Awaited<ReturnType<typeof startQueueService>>;
