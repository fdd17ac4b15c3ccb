// A tool's approval context (docs/hitl.md, "Approval context"): looked up once when the pause
// opens and recorded with it; cut to a card's size; a lookup that throws or hangs opens the pause
// without it, and a tool without one has none.
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type ToolApprovalOptions } from '../../authoring';
import { approvalContextOf } from './approval-context';
import { buildInterrupt } from './interrupt-record';

function desk(context?: ToolApprovalOptions['context']) {
  return defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    tools: { refund: tool({ inputSchema: z.object({ orderId: z.string() }), execute: async () => ({ ok: true }) }) },
    toolApproval: { refund: { policy: 'user-approval', ...(context ? { context } : {}) } },
  });
}
const call = { id: 'call_1', name: 'refund', input: { orderId: 'po_42' } };
const lookUp = (agent: ReturnType<typeof desk>, signal = new AbortController().signal) => approvalContextOf(agent, call, { sessionId: 's1', signal });

describe('the approval context of a paused call', () => {
  it('is what the tool looked up, recorded with the interrupt', async () => {
    const agent = desk(async (input: { orderId: string }, ctx) => ({
      facts: [{ label: 'Order', value: `${input.orderId} for ${ctx.agent}` }],
      risk: 'Already refunded once.',
    }));
    const context = await lookUp(agent);
    expect(context).toEqual({ facts: [{ label: 'Order', value: 'po_42 for desk' }], risk: 'Already refunded once.' });
    expect(buildInterrupt(agent, call, 'run-1', undefined, Date.now(), context).context).toEqual(context);
  });

  it('is cut to a card: 12 facts of 300 characters, empty ones dropped; nothing found is none', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ label: `Fact ${i}`, value: 'x'.repeat(400) }));
    const context = await lookUp(desk(() => ({ facts: [{ label: '', value: 'no label' }, ...many] })));
    expect(context!.facts).toHaveLength(12);
    expect(context!.facts[0]).toEqual({ label: 'Fact 0', value: 'x'.repeat(300) });
    expect(await lookUp(desk(() => ({ facts: [] })))).toBeUndefined();
    expect(await lookUp(desk(() => undefined))).toBeUndefined();
  });

  it('a lookup that throws, or is stopped, opens the pause without it; a tool without one has none', async () => {
    expect(
      await lookUp(
        desk(() => {
          throw new Error('orders API down');
        }),
      ),
    ).toBeUndefined();
    const stop = new AbortController();
    const hanging = lookUp(
      desk(() => new Promise(() => {})),
      stop.signal,
    );
    stop.abort(new Error('the run was stopped'));
    expect(await hanging).toBeUndefined();
    expect(await lookUp(desk())).toBeUndefined();
    expect(buildInterrupt(desk(), call, 'run-1')).not.toHaveProperty('context');
  });
});
