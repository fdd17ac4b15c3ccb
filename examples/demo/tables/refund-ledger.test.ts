// The support demo's refunds are made once per call, across sessions and crashes (docs/hitl.md,
// "Exactly once"): keyed by handlerContext().idempotencyKey — unique across sessions, the same
// on every attempt — in the app's own table, not in a process's memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../../server/authoring';
import { closeAppDatabase } from '../../../server/store/app-database';
import { createMemoryStore } from '../../../server/store/memory-store';
import { createPrismaStore } from '../../../server/store/prisma-store';
import type { EventStore } from '../../../server/store/types';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../../../tests/support/database';
import { reusingCallIds } from '../../../tests/support/models';
import type { RunPart } from '../../../server/runtime/stream/parts';
import { reduceAll } from '../../../server/runtime/session/reduce';
import { recoverSession } from '../../../server/runtime/recovery/recovery';
import { startRun } from '../../../server/runtime/turn-control/turns';
import type { RunRequest } from '../../../server/runtime/turn/run-request';
import support from '../agents/support';
import { recordRefund, refundsOf } from './refund-ledger';

const desk = defineDeepAgent({ ...support, models: undefined, model: reusingCallIds() });

async function turn(store: EventStore, sessionId: string, request: Partial<RunRequest>): Promise<RunPart[]> {
  const run = await startRun({ agent: desk, store, sessionId, ownerId: sessionId.split('/')[0]!, source: 'agui', messages: [], ...request });
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

/** Asks for a refund on a session and approves it; answers the interrupt's call id. */
async function refundApproved(store: EventStore, sessionId: string, orderId: string): Promise<string> {
  const paused = await turn(store, sessionId, { messages: [{ id: `m-${sessionId}`, role: 'user', content: `refund order ${orderId} for 5` }] });
  const finished = paused.at(-1);
  if (finished?.type !== 'run-finished' || !finished.interrupts?.length) throw new Error(`expected a pause, got ${JSON.stringify(finished)}`);
  const [interrupt] = finished.interrupts;
  await turn(store, sessionId, {
    decisions: [{ interruptId: interrupt!.id, status: 'approved', payload: { note: 'ok' } }],
    decidedBy: { source: 'hitl', ownerId: 'desk', credential: 'key' },
  });
  return interrupt!.toolCallId;
}

const databases: [string, () => Promise<string | undefined>][] = [
  ['sqlite', () => freshSqliteUrl()],
  ['postgres', async () => ((await postgresReachable()) ? freshPostgresUrl('stackbone_refund_ledger_test') : undefined)],
];

const saved = { url: process.env.DATABASE_URL, model: process.env.STACKBONE_MODEL };
beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});
afterAll(async () => {
  await closeAppDatabase();
  process.env.DATABASE_URL = saved.url;
  process.env.STACKBONE_MODEL = saved.model;
}, 30_000);

describe.each(databases)('the support refund ledger on %s', (_kind, open) => {
  let ready = false;
  beforeAll(async () => {
    const url = await open();
    if (!url) return; // no PostgreSQL here: the integration suite says so loudly
    await closeAppDatabase();
    process.env.DATABASE_URL = url;
    ready = true;
  }, 60_000);

  it('a provider that sends call_0 in two sessions makes two refunds, not the first one twice', async () => {
    if (!ready) return;
    const store = createMemoryStore();
    const orderId = `ord_${Date.now() % 100_000}`;
    const first = await refundApproved(store, 'key:a/customer-42', orderId);
    const second = await refundApproved(store, 'key:b/customer-42', orderId);
    expect([first, second]).toEqual(['call_0', 'call_0']);
    const refunds = await refundsOf(orderId);
    expect(refunds).toHaveLength(2);
    expect(new Set(refunds.map((refund) => refund.refundId)).size).toBe(2);
    // Each session's tool result names its own refund.
    for (const sessionId of ['key:a/customer-42', 'key:b/customer-42']) {
      const result = reduceAll(await store.readEvents(sessionId), {}).messages.find((message) => message.role === 'tool' && message.toolName === 'refundOrder');
      expect(refunds.map((refund) => refund.refundId)).toContain((JSON.parse(result!.content) as { refundId: string }).refundId);
    }
  });

  it('a refund carried out again after a crash (attempt 2, same call) is recorded once and answers with the first refund', async () => {
    if (!ready) return;
    const store = createMemoryStore();
    const orderId = `ord_${(Date.now() % 100_000) + 1}`;
    const sessionId = 'local/crashed';
    await refundApproved(store, sessionId, orderId);
    const [made] = await refundsOf(orderId);
    // The server died after the refund and before its result was kept: the log says the tool started and nothing after.
    const log = await store.readEvents(sessionId);
    const startedAt = log.findIndex((stored) => stored.event.type === 'tool_started');
    const crashed = createMemoryStore();
    await crashed.ensureSession({ id: sessionId, ownerId: 'local', agent: desk.name });
    await crashed.append(
      sessionId,
      0,
      log.slice(0, startedAt + 1).map((stored) => stored.event),
      { status: 'running', leaseUntil: new Date(Date.now() - 1) },
    );
    const recovered = await recoverSession(crashed, () => desk, sessionId);
    await recovered!.done;
    const view = reduceAll(await crashed.readEvents(sessionId), {});
    expect(view.toolAttempts[Object.keys(view.toolAttempts)[0]!]).toBe(2);
    expect(await refundsOf(orderId)).toEqual([made]);
    const result = view.messages.find((message) => message.role === 'tool' && message.toolName === 'refundOrder');
    expect(JSON.parse(result!.content)).toMatchObject({ refunded: true, refundId: made!.refundId });
  });

  it('refunds made while the event store writes to the same database all land, at once (no deadlock between the two connections)', async () => {
    if (!ready) return;
    const store = createPrismaStore(process.env.DATABASE_URL!);
    try {
      const orderId = `ord_${(Date.now() % 100_000) + 3}`;
      const started = Date.now();
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) =>
          store.append(`o/busy-${orderId}-${i}`, 0, [{ type: 'message_added', message: { id: 'm', role: 'user', content: 'x' } }], {
            status: 'idle',
            create: { ownerId: 'o', agent: 'support' },
          }),
        ),
        ...Array.from({ length: 10 }, (_, i) => recordRefund(`idem_busy-${orderId}-${i}`, { orderId, amount: 1 })),
      ]);
      expect(await refundsOf(orderId)).toHaveLength(10);
      // The database's busy timeout is 10 s: a deadlock would wait it out, and fail.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await store.close();
    }
  }, 30_000);

  it('two attempts at once write one row', async () => {
    if (!ready) return;
    const orderId = `ord_${(Date.now() % 100_000) + 2}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => recordRefund('idem_same-call-at-once', { orderId, amount: 3 })));
    expect(new Set(results.map((refund) => refund.refundId)).size).toBe(1);
    expect(await refundsOf(orderId)).toHaveLength(1);
  });
});
