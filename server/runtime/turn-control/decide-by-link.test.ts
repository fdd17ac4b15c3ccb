import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpdeskPhrases } from '../../../tests/fixtures/agents/helpdesk-phrases';
import { defineDeepAgent } from '../../authoring';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import { createMemoryStore } from '../../store/memory-store';
import { argumentsHash, linkExpiry, signLink, type LinkAction } from '../notify';
import { reduceAll } from '../session/reduce';
import type { RunPart } from '../stream/parts';
import { decideByLink, readLink } from './decide-by-link';
import { startRun } from './turns';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  process.env.STACKBONE_SECRET = 'l'.repeat(64);
});

let refunds: unknown[] = [];
const agent = defineDeepAgent({
  name: 'desk',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  offline: { phrases: [helpdeskPhrases.refundPayment] },
  tools: {
    refundPayment: tool({
      inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
      execute: async (input) => {
        refunds.push(input);
        return { refunded: true, ...input };
      },
    }),
  },
  // Kept for key holders: a customer's browser cannot approve it; a link minted for the desk can.
  toolApproval: {
    refundPayment: {
      policy: 'user-approval',
      describe: (input: { orderId: string; amount: number }) => `Refund ${input.amount} on ${input.orderId}`,
      approvers: 'key-holders',
    },
  },
});
const findAgent = (name: string) => (name === 'desk' ? agent : undefined);

async function paused() {
  refunds = [];
  const store = createMemoryStore();
  const message: ChatMessage = { id: 'm1', role: 'user', content: 'refund order po_42 for 19.99' };
  const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'browser:customer', source: 'agui', messages: [message], runId: 'run-1' });
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  const last = parts.at(-1)!;
  if (last.type !== 'run-finished' || last.outcome.type !== 'interrupt') throw new Error('expected a pause');
  return { store, interrupt: last.interrupts![0]! };
}

const token = (interrupt: InterruptRecord, action: LinkAction, input: unknown = interrupt.input) =>
  signLink({
    interruptId: interrupt.id,
    action,
    argsHash: argumentsHash(input),
    expiresAt: linkExpiry(interrupt.expiresAt),
    recipient: 'email:desk@example.com',
  });

describe('deciding through a link', () => {
  it('reads without deciding, then decides once, recorded as the link of its recipient, though the call is kept for key holders', async () => {
    const { store, interrupt } = await paused();
    const approve = token(interrupt, 'approve');
    const view = await readLink(store, findAgent, approve);
    expect(view).toMatchObject({ interrupt: { id: interrupt.id }, session: { key: 's1', agent: 'desk' }, lastUserMessage: 'refund order po_42 for 19.99' });
    expect(view.decided).toBeUndefined();
    expect(await store.listPendingInterrupts('browser:customer')).toHaveLength(1);

    const result = await decideByLink({ store, findAgent, token: approve });
    await result.continuation!.done;
    expect(result.decision).toMatchObject({ status: 'approved', by: { source: 'link', credential: 'link', recipient: 'email:desk@example.com' } });
    expect(refunds).toEqual([{ orderId: 'po_42', amount: 19.99 }]);

    const again = decideByLink({ store, findAgent, token: approve });
    await expect(again).rejects.toMatchObject({ code: 'interrupt_already_decided', status: 409 });
    // How it was decided, never who: the holder of another link is told no address (docs/security.md).
    await expect(again).rejects.toThrow(/already decided: approved by someone through an emailed link on /);
    await expect(again).rejects.not.toThrow(/desk@example\.com/);
    expect((await readLink(store, findAgent, approve)).decided?.decision.status).toBe('approved');
    expect(refunds).toHaveLength(1);
  });

  it('refuses a link minted for other arguments, and one that only opens the request, deciding nothing', async () => {
    const { store, interrupt } = await paused();
    const head = (await store.getSession('s1'))!.headSeq;
    await expect(decideByLink({ store, findAgent, token: token(interrupt, 'approve', { orderId: 'po_42', amount: 1999 }) })).rejects.toMatchObject({
      code: 'link_arguments_changed',
      status: 409,
    });
    await expect(decideByLink({ store, findAgent, token: token(interrupt, 'open') })).rejects.toMatchObject({ code: 'link_invalid' });
    await expect(decideByLink({ store, findAgent, token: token(interrupt, 'approve'), now: new Date(Date.now() + 8 * 24 * 3600_000) })).rejects.toMatchObject({
      code: 'link_expired',
    });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    expect(refunds).toEqual([]);
  });

  it('rejects with the reason given on the page: the model is told', async () => {
    const { store, interrupt } = await paused();
    const result = await decideByLink({ store, findAgent, token: token(interrupt, 'reject'), reason: '  Order already refunded  ' });
    await result.continuation!.done;
    expect(result.decision).toMatchObject({ status: 'denied', reason: 'Order already refunded' });
    const view = reduceAll(await store.readEvents('s1'), {});
    const answer = view.messages.find((message) => message.role === 'tool');
    expect(answer?.content).toContain('Order already refunded');
    expect(refunds).toEqual([]);
  });
});
