// Approvers (docs/security.md, "Approvers"): a tool kept for key holders is approved or
// rejected only with a key — never by the browser whose session it is — while that browser may
// still withdraw the request; a key holder sees and decides it though the session is not theirs.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpdeskPhrases } from '../../../tests/fixtures/agents/helpdesk-phrases';
import { defineDeepAgent } from '../../authoring';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import { createMemoryStore } from '../../store/memory-store';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

let refunds: string[] = [];

const desk = defineDeepAgent({
  name: 'desk',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  offline: { phrases: [helpdeskPhrases.refundPayment, helpdeskPhrases.closeTicket] },
  tools: {
    refundPayment: tool({
      inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
      execute: async (input) => {
        refunds.push(input.orderId);
        return { refunded: true };
      },
    }),
    closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async () => ({ closed: true }) }),
  },
  toolApproval: { refundPayment: { policy: 'user-approval', approvers: 'key-holders' }, closeTicket: 'user-approval' },
});

const BROWSER = 'browser:b1';
const customer: DecisionActor = { source: 'agui', ownerId: BROWSER, credential: 'browser' };
const staff: DecisionActor = { source: 'hitl', ownerId: 'key:staff', credential: 'key' };

async function pausedOn(text: string) {
  refunds = [];
  const store = createMemoryStore();
  const run = await startRun({ agent: desk, store, sessionId: 's1', ownerId: BROWSER, source: 'agui', messages: [{ id: 'u1', role: 'user', content: text }] });
  await run.done;
  const events = await store.readEvents('s1');
  const opened = events.flatMap(({ event }) => (event.type === 'interrupts_opened' ? event.interrupts : []));
  return { store, interrupt: opened[0] as InterruptRecord };
}

const decide = (
  store: ReturnType<typeof createMemoryStore>,
  interruptId: string,
  by: DecisionActor,
  status: 'approved' | 'denied' | 'cancelled' = 'approved',
) => decideInterrupt({ store, findAgent: () => desk, interruptId, request: { status }, by });

describe('approvers: key-holders', () => {
  it('the pause records who may decide it', async () => {
    const { interrupt } = await pausedOn('refund order po_42 for 19.99');
    expect(interrupt).toMatchObject({ toolName: 'refundPayment', approvers: 'key-holders' });
  });

  it("the session's browser may neither approve nor reject it, over AG-UI or out of band, and nothing is written", async () => {
    const { store, interrupt } = await pausedOn('refund order po_42 for 19.99');
    const head = (await store.getSession('s1'))!.headSeq;
    for (const status of ['approved', 'denied'] as const) {
      await expect(decide(store, interrupt.id, customer, status)).rejects.toMatchObject({ code: 'approver_required', status: 403 });
      await expect(
        startRun({
          agent: desk,
          store,
          sessionId: 's1',
          ownerId: BROWSER,
          source: 'agui',
          messages: [],
          decisions: [{ interruptId: interrupt.id, status }],
          decidedBy: customer,
        }),
      ).rejects.toMatchObject({ code: 'approver_required' });
    }
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    expect(refunds).toEqual([]);
  });

  it('a key holder lists it among their own and approves it: the refund runs once', async () => {
    const { store, interrupt } = await pausedOn('refund order po_42 for 19.99');
    expect(await store.listPendingInterrupts(staff.ownerId!)).toEqual([]);
    expect((await store.listPendingInterrupts(staff.ownerId!, { keyHolder: true })).map((row) => row.id)).toEqual([interrupt.id]);
    const result = await decide(store, interrupt.id, staff);
    await result.continuation!.done;
    expect(result.decision).toMatchObject({ status: 'approved', by: { credential: 'key' } });
    expect(refunds).toEqual(['po_42']);
  });

  it("the browser may withdraw it; another browser, or a key holder for an approval that is the session owner's, finds nothing", async () => {
    const { store, interrupt } = await pausedOn('refund order po_42 for 19.99');
    await expect(decide(store, interrupt.id, { source: 'agui', ownerId: 'browser:b2', credential: 'browser' })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
    const withdrawn = await decide(store, interrupt.id, customer, 'cancelled');
    await withdrawn.continuation!.done;
    expect(withdrawn.decision!.status).toBe('cancelled');
    expect(refunds).toEqual([]);

    const ticket = await pausedOn('close ticket T-7');
    expect(ticket.interrupt.approvers).toBeUndefined();
    expect(await ticket.store.listPendingInterrupts(staff.ownerId!, { keyHolder: true })).toEqual([]);
    await expect(decide(ticket.store, ticket.interrupt.id, staff)).rejects.toMatchObject({ code: 'not_found' });
  });
});
