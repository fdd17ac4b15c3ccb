// What the projector makes of a decided pause and of a stop: every decision reaches the stream
// of the run it resumes (not only those made outside a run), with what a chat shows under the
// call; a stop names the calls it cut. Live and replayed, the same parts under the same cursors.
import { tool } from 'ai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpdeskPhrases } from '../../../tests/fixtures/agents/helpdesk-phrases';
import { defineDeepAgent } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import { reduceAll } from '../session/reduce';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';
import { decisionRecords } from './decision-records';
import { follow } from './follow';
import type { StreamPart } from './parts';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});
afterEach(() => {
  delete process.env.STACKBONE_STOP_GRACE_MS;
});

const refunds: unknown[] = [];
const desk = defineDeepAgent({
  name: 'desk',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  offline: { phrases: [helpdeskPhrases.refundPayment, helpdeskPhrases.closeTicket] },
  tools: {
    refundPayment: tool({
      inputSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
      execute: async (input) => {
        refunds.push(input);
        return { refunded: true, ...input };
      },
    }),
    closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async (input) => ({ closed: true, ...input }) }),
  },
  toolApproval: { refundPayment: { policy: 'user-approval', allowEdit: true }, closeTicket: 'user-approval' },
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const all: StreamPart[] = [];
  for await (const entry of parts) all.push(entry);
  return all;
}

async function pausedOn(store: EventStore, text: string): Promise<InterruptRecord[]> {
  const run = await startRun({ agent: desk, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user(text)] });
  const parts = await collect(run.stream());
  await run.done;
  const last = parts.at(-1)!.part;
  if (last.type !== 'run-finished' || !last.interrupts?.length) throw new Error(`expected a pause, got ${JSON.stringify(last)}`);
  return last.interrupts;
}

const replayOf = (store: EventStore, runId?: string) =>
  collect(follow({ store, sessionId: 's1', initialState: desk.initialState, after: null, runId, maxMs: runId ? undefined : 50, pollMs: 10 }));

describe('decisions on the stream', () => {
  it('a resume with edits shows its decision in its own run, right after its start, live and replayed alike', async () => {
    const store = createMemoryStore();
    const [refund] = await pausedOn(store, 'refund order po_42 for 19.99');
    const resumed = await startRun({
      agent: desk,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [],
      decisions: [{ interruptId: refund!.id, status: 'approved', editedArgs: { orderId: 'po_42', amount: 15 } }],
    });
    const live = await collect(resumed.stream());
    await resumed.done;

    expect(live.map((entry) => entry.part.type).slice(0, 2)).toEqual(['run-started', 'interrupt-decided']);
    const decided = live[1]!;
    expect(decided.runId).toBe(resumed.runId);
    expect(decided.part).toEqual({
      type: 'interrupt-decided',
      decision: {
        interruptId: refund!.id,
        toolCallId: refund!.toolCallId,
        toolName: 'refundPayment',
        interruptReason: 'tool_call',
        status: 'approved',
        argsAsked: { orderId: 'po_42', amount: 19.99 },
        editedArgs: { orderId: 'po_42', amount: 15 },
        by: { source: 'agui' },
        at: expect.any(String),
      },
    });
    // The edited arguments are the ones that ran.
    expect(refunds.at(-1)).toEqual({ orderId: 'po_42', amount: 15 });
    // A client re-joining the run, or reading the thread later, gets the same parts.
    expect(await replayOf(store, resumed.runId)).toEqual(live);
    // The hydration's list says the same as the stream did.
    expect(decisionRecords(reduceAll(await store.readEvents('s1')))).toEqual([(decided.part as { decision: unknown }).decision]);
  });

  it('a decision that leaves its batch open comes on its own, and the last one in the run it starts', async () => {
    const store = createMemoryStore();
    const [refund, close] = await pausedOn(store, 'call refundPayment {"orderId":"po_1","amount":5}; call closeTicket {"ticketId":"T-2"}');
    await decideInterrupt({
      store,
      findAgent: () => desk,
      interruptId: close!.id,
      request: { status: 'denied', reason: 'not yet' },
      by: { source: 'hitl', ownerId: 'o1', credential: 'key', client: 'cli' },
    });
    const { continuation } = await decideInterrupt({
      store,
      findAgent: () => desk,
      interruptId: refund!.id,
      request: { status: 'approved' },
      by: { source: 'hitl', ownerId: 'o1', credential: 'key' },
    });
    await continuation!.done;

    const session = (await replayOf(store)).filter((entry) => entry.part.type === 'interrupt-decided');
    expect(session.map((entry) => [entry.runId, (entry.part as { decision: { toolCallId: string } }).decision.toolCallId])).toEqual([
      [undefined, close!.toolCallId],
      [continuation!.runId, refund!.toolCallId],
    ]);
    // Who decided, as the chat says it: not the owner's id, not the client's own label.
    expect(session[0]!.part).toMatchObject({ decision: { status: 'denied', reason: 'not yet', by: { source: 'hitl', credential: 'key' } } });
    expect(JSON.stringify(session[0]!.part)).not.toContain('o1');
  });
});

describe('a stop on the stream', () => {
  it('names the calls it cut: the running one that did not finish and the one that never started', async () => {
    process.env.STACKBONE_STOP_GRACE_MS = '20';
    let begun!: () => void;
    const hanging = new Promise<void>((resolve) => (begun = resolve));
    const agent = defineDeepAgent({
      name: 'worker',
      model: createScriptedModel({ delayMs: 1 }),
      instructions: 'x',
      // One lane: the second call waits for the first, so the stop comes before it starts.
      toolLane: 'tools',
      tools: {
        hang: tool({
          inputSchema: z.object({}),
          execute: async () => {
            begun();
            return new Promise<string>(() => undefined);
          },
        }),
        note: tool({ inputSchema: z.object({}), execute: async () => 'noted' }),
      },
    });
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('call hang {}; call note {}')] });
    await hanging;
    await store.requestStop({ sessionId: 's1', runId: run.runId, by: { source: 'agui' } });
    const live = await collect(run.stream());
    await run.done;

    const view = reduceAll(await store.readEvents('s1'));
    const calls = view.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []));
    expect(calls.map((call) => call.name)).toEqual(['hang', 'note']);
    expect(view.stoppedToolCallIds).toEqual(calls.map((call) => call.id));
    expect(live.slice(-3).map((entry) => entry.part)).toEqual([
      expect.objectContaining({ type: 'messages-snapshot' }),
      { type: 'tools-stopped', toolCallIds: calls.map((call) => call.id) },
      { type: 'run-finished', outcome: { type: 'cancelled' }, usage: [expect.objectContaining({ provider: 'scripted' })] },
    ]);
    expect(await replayOf(store, run.runId)).toEqual(live);
  });
});
