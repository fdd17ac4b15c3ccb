// GET /api/studio/approval-metrics (docs/studio.md, "Approval metrics") counts what Studio's inbox
// and the decision export show its caller: a key's own sessions' approvals and the browsers' calls
// kept for key holders, never another key's; without a key it answers 401. Real runs on a memory
// store with two keys configured, decided as the out-of-band API decides.
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import type { ApprovalMetrics } from '../../contract';
import { keyOwner } from '../../credentials/open-dev-mode';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { decideInterrupt, loadView, pendingInterrupts, scopedSessionId, startRun, userMessage } from '../../runtime';
import { handleApprovalMetrics } from './approval-metrics';

const store = createMemoryStore();
const saved = { keys: process.env.STACKBONE_API_KEYS, secret: process.env.STACKBONE_SECRET };

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  process.env.STACKBONE_API_KEYS = 'alice=sk-alice-1,bob=sk-bob-2';
  process.env.STACKBONE_SECRET = 'a-test-secret-that-is-long-enough-000000';
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = store;
});

afterAll(() => {
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
  for (const [name, value] of [
    ['STACKBONE_API_KEYS', saved.keys],
    ['STACKBONE_SECRET', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const close = tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ closed: ticketId }) });
const agent = defineDeepAgent({
  name: 'desk',
  model: createScriptedModel(),
  instructions: 'x',
  tools: { close },
  toolApproval: { close: { policy: 'user-approval', approvers: 'key-holders', allowEdit: true } },
});

/** A session of `ownerId` whose one call waits; decided by `deciderId` with `request` when given. */
async function session(ownerId: string, ticketId: string, decided?: { by: string; request: { status: 'approved' | 'denied'; editedArgs?: unknown } }) {
  const sessionId = scopedSessionId(ownerId, ticketId);
  await (
    await startRun({ agent, store, sessionId, ownerId, source: 'agui', messages: [userMessage(`call close {"ticketId":"${ticketId}"}`)] })
  ).done;
  if (!decided) return;
  const [interrupt] = pendingInterrupts(await loadView(store, sessionId, {}));
  const decision = await decideInterrupt({
    store,
    findAgent: () => agent,
    interruptId: interrupt!.id,
    request: decided.request,
    by: { source: 'hitl', ownerId: decided.by, credential: 'key' },
  });
  await decision.continuation?.done;
}

async function metricsOf(key?: string): Promise<{ status: number; metrics?: ApprovalMetrics }> {
  const response = await handleApprovalMetrics(
    new Request('http://localhost/api/studio/approval-metrics', { headers: key ? { authorization: `Bearer ${key}` } : {} }),
  );
  return { status: response.status, ...(response.ok ? { metrics: (await response.json()) as ApprovalMetrics } : {}) };
}

describe('GET /api/studio/approval-metrics', () => {
  it("counts a key's own sessions' approvals and the browsers' kept for key holders, never another key's; 401 without a key", async () => {
    const alice = keyOwner('sk-alice-1');
    const bob = keyOwner('sk-bob-2');
    const browser = 'browser:4f1c0d2e-0000-4000-8000-000000000000';
    await session(alice, 'T-alice-1', { by: alice, request: { status: 'approved' } });
    await session(alice, 'T-alice-2', { by: alice, request: { status: 'approved', editedArgs: { ticketId: 'T-alice-2b' } } });
    await session(alice, 'T-alice-3');
    await session(bob, 'T-bob', { by: bob, request: { status: 'denied' } });
    await session(browser, 'T-browser', { by: bob, request: { status: 'denied' } });
    await session(browser, 'T-browser-open');

    const seen = await metricsOf('sk-alice-1');
    expect(seen.status).toBe(200);
    const [week, month] = seen.metrics!.windows;
    expect(week!.tools).toEqual([{ agent: 'desk', toolName: 'close', counts: { approved: 1, edited: 1, rejected: 1, expired: 0, cancelled: 0 }, total: 3 }]);
    expect(week!.timeToDecide.decisions).toBe(3);
    expect(month!.tools).toEqual(week!.tools);
    expect(seen.metrics!.pending).toBe(2);
    expect(seen.metrics!.slowest.map((open) => [open.sessionId, open.ownSession])).toEqual([
      ['T-alice-3', true],
      ['T-browser-open', false],
    ]);

    const bobs = (await metricsOf('sk-bob-2')).metrics!;
    expect(bobs.windows[0]!.tools[0]!.counts).toEqual({ approved: 0, edited: 0, rejected: 2, expired: 0, cancelled: 0 });
    expect(bobs.slowest.map((open) => open.sessionId)).toEqual(['T-browser-open']);

    expect((await metricsOf()).status).toBe(401);
    expect((await metricsOf('sk-wrong')).status).toBe(401);
  });
});
