// A rejection may carry data (docs/hitl.md, "Decision data"): validated against the approval
// schema's reject branch on every path, kept in the log, told to the model. A top-level field
// that is not part of a decision is refused.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { reduceAll } from '../session/reduce';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from '../turn/run-request';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const transfers: unknown[] = [];
const bank = defineDeepAgent({
  name: 'bank',
  model: 'openai/gpt-4o-mini',
  instructions: 'Moves money.',
  tools: {
    transfer: tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: async (input) => {
        transfers.push(input);
        return { sent: input.amount };
      },
    }),
  },
  toolApproval: {
    transfer: {
      policy: 'user-approval',
      approvalSchema: { approve: z.object({ note: z.string().optional() }), reject: z.object({ reason: z.enum(['Policy limit', 'Suspected fraud']) }) },
    },
  },
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

async function run(store: EventStore, request: Partial<RunRequest>) {
  const started = await startRun({ agent: bank, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [], ...request });
  for await (const _part of started.parts);
  await started.done;
  return reduceAll(await store.readEvents('s1'), bank.initialState);
}

async function paused(store: EventStore): Promise<InterruptRecord> {
  const view = await run(store, { messages: [user('call transfer {"amount": 5000}')] });
  return Object.values(view.interrupts)[0]!.record;
}

describe('a rejection with data', () => {
  it('is described per decision in the responseSchema: one branch to approve, one to reject', async () => {
    const record = await paused(createMemoryStore());
    const [approve, reject] = record.responseSchema.oneOf as { properties: Record<string, unknown> }[];
    expect(approve!.properties).toMatchObject({ approved: { const: true }, payload: { properties: { note: { type: 'string' } } } });
    expect(reject!.properties).toMatchObject({
      approved: { const: false },
      payload: { properties: { reason: { enum: ['Policy limit', 'Suspected fraud'] } } },
    });
  });

  it('over AG-UI: validated against the reject branch, kept in the log, told to the model', async () => {
    const store = createMemoryStore();
    const record = await paused(store);
    const head = (await store.getSession('s1'))!.headSeq;
    const refused = run(store, { decisions: [{ interruptId: record.id, status: 'resolved', payload: { approved: false, payload: { reason: 'I said so' } } }] });
    await expect(refused).rejects.toMatchObject({ code: 'payload_invalid' });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);

    const view = await run(store, {
      decisions: [{ interruptId: record.id, status: 'resolved', payload: { approved: false, payload: { reason: 'Policy limit' } } }],
    });
    expect(view.interrupts[record.id]!.decision).toMatchObject({ status: 'denied', payload: { reason: 'Policy limit' } });
    const result = view.messages.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ toolCallId: record.toolCallId });
    expect((result as { content: string }).content).toContain('Policy limit');
    expect(transfers).toEqual([]);
  });

  it('out of band (/api/hitl, the CLI): the same branch, the same refusal', async () => {
    const store = createMemoryStore();
    const record = await paused(store);
    const decide = (payload: unknown) =>
      decideInterrupt({
        store,
        findAgent: () => bank,
        interruptId: record.id,
        request: { status: 'denied', payload },
        by: { source: 'hitl', ownerId: 'o1' },
      });
    await expect(decide({ reason: 'Because' })).rejects.toMatchObject({ code: 'payload_invalid' });
    const decided = await decide({ reason: 'Suspected fraud' });
    expect(decided.decision).toMatchObject({ status: 'denied', payload: { reason: 'Suspected fraud' } });
    await decided.continuation?.done;
    expect(reduceAll(await store.readEvents('s1'), bank.initialState).interrupts[record.id]!.decision).toMatchObject({
      payload: { reason: 'Suspected fraud' },
    });
  });

  it('refuses a top-level field that is not part of a decision, writing nothing', async () => {
    const store = createMemoryStore();
    const record = await paused(store);
    const head = (await store.getSession('s1'))!.headSeq;
    await expect(
      run(store, { decisions: [{ interruptId: record.id, status: 'resolved', payload: { approved: false, reason: 'x', policy: 'limit' } }] }),
    ).rejects.toMatchObject({ code: 'resume_invalid' });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
  });

  it('an approval still takes the approve branch only', async () => {
    const store = createMemoryStore();
    const record = await paused(store);
    await expect(
      run(store, { decisions: [{ interruptId: record.id, status: 'resolved', payload: { approved: true, payload: { reason: 'Policy limit', note: 3 } } }] }),
    ).rejects.toMatchObject({ code: 'payload_invalid' });
    const view = await run(store, { decisions: [{ interruptId: record.id, status: 'resolved', payload: { approved: true, payload: { note: 'ok' } } }] });
    expect(view.interrupts[record.id]!.decision).toMatchObject({ status: 'approved', payload: { note: 'ok' } });
    expect(transfers).toEqual([{ amount: 5000 }]);
  });
});
