import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpdeskPhrases } from '../../../tests/fixtures/agents/helpdesk-phrases';
import { defineDeepAgent, type DeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { handlerContext } from '../tools/handler-context';
import type { DecisionRequest } from '../decisions/read-decision';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import { decideInterrupt } from './decide-out-of-band';
import type { RunPart } from '../stream/parts';
import { reduceAll } from '../session/reduce';
import { recoverSession } from '../recovery/recovery';
import { startRun } from './turns';
import type { RunRequest } from '../turn/run-request';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** The side-effect ledger: one entry per execution, with the idempotency key and arguments. */
let ledger: { toolCallId: string; tool: string; input: unknown; payload?: unknown; attempt: number }[] = [];

function makeAgent(amountSchema: z.ZodType = z.number().positive(), ttl = '24h') {
  return defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    offline: { phrases: [helpdeskPhrases.refundPayment, helpdeskPhrases.closeTicket] },
    tools: {
      refundPayment: tool({
        inputSchema: z.object({ orderId: z.string(), amount: amountSchema }),
        execute: async (input) => {
          const { event, attempt } = handlerContext();
          ledger.push({ toolCallId: event.toolCallId, tool: 'refundPayment', input, payload: event.payload, attempt });
          return { refunded: true, ...input };
        },
      }),
      closeTicket: tool({
        inputSchema: z.object({ ticketId: z.string() }),
        execute: async (input) => {
          const { event, attempt } = handlerContext();
          ledger.push({ toolCallId: event.toolCallId, tool: 'closeTicket', input, attempt });
          return { closed: true, ...input };
        },
      }),
    },
    toolApproval: {
      refundPayment: {
        policy: 'user-approval',
        allowEdit: true,
        approvalSchema: z.object({ note: z.string().max(20).optional() }),
        describe: (input: { orderId: string; amount: number }) => `Refund order ${input.orderId} for ${input.amount}`,
        ttl,
      },
      closeTicket: (input: { ticketId: string }) => (input.ticketId === 'T-0' ? 'approved' : 'user-approval'),
    },
  });
}

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });

async function drain(run: { parts: AsyncIterable<RunPart>; done: Promise<void> }) {
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

async function turn(store: EventStore, agent: DeepAgent, request: Partial<RunRequest>) {
  return drain(await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [], ...request }));
}

const interruptsOf = (parts: RunPart[]): InterruptRecord[] => {
  const last = parts.at(-1)!;
  if (last.type !== 'run-finished' || last.outcome.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(last)}`);
  return last.interrupts!;
};

async function pausedOn(text: string, agent = makeAgent()) {
  ledger = [];
  const store = createMemoryStore();
  const parts = await turn(store, agent, { messages: [user(text)], runId: 'run-1' });
  return { store, agent, parts, interrupts: interruptsOf(parts) };
}

const approve = (interruptId: string, extra: Partial<DecisionRequest> = {}): DecisionRequest => ({ interruptId, status: 'approved', ...extra });
const view = async (store: EventStore, agent: DeepAgent) => reduceAll(await store.readEvents('s1'), agent.initialState);

describe('interrupts', () => {
  it('pause the run after the model step, with the snapshot first and a complete interrupt', async () => {
    const { parts, interrupts, store, agent } = await pausedOn('refund order po_42 for 19.99');
    expect(parts.slice(-3).map((part) => part.type)).toEqual(['messages-snapshot', 'state-snapshot', 'run-finished']);
    expect(interrupts).toHaveLength(1);
    const [interrupt] = interrupts;
    expect(interrupt).toMatchObject({
      reason: 'tool_call',
      toolName: 'refundPayment',
      input: { orderId: 'po_42', amount: 19.99 },
      message: 'Refund order po_42 for 19.99',
      allowedDecisions: ['approve', 'reject', 'edit'],
      onExpire: 'deny',
      runId: 'run-1',
    });
    expect(Date.parse(interrupt!.expiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(Object.keys((interrupt!.responseSchema as { properties: object }).properties)).toEqual(['approved', 'reason', 'editedArgs', 'payload']);
    expect(ledger).toEqual([]);
    expect((await view(store, agent)).status).toBe('interrupted');
    expect(await store.listPendingInterrupts('o1')).toHaveLength(1);
  });

  it('lets a policy function decide from the input', async () => {
    ledger = [];
    const store = createMemoryStore();
    const parts = await turn(store, makeAgent(), { messages: [user('close ticket T-0')] });
    expect(parts.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(ledger.map((entry) => entry.input)).toEqual([{ ticketId: 'T-0' }]);
  });

  it('refuse a new message while a decision is pending, writing nothing', async () => {
    const { store, agent } = await pausedOn('refund order po_42 for 19.99');
    const head = (await store.getSession('s1'))!.headSeq;
    await expect(turn(store, agent, { messages: [user('hello?')] })).rejects.toMatchObject({ code: 'interrupts_pending', status: 409 });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
  });
});

describe('resume', () => {
  it('approve: the tool runs once and its result answers the original call, never re-emitted', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    const parts = await turn(store, agent, { runId: 'run-2', parentRunId: 'run-1', decisions: [approve(interrupts[0]!.id, { payload: { note: 'sorry' } })] });
    expect(parts[0]).toMatchObject({ type: 'run-started', runId: 'run-2', parentRunId: 'run-1' });
    expect(parts.filter((part) => part.type === 'tool-call-start')).toEqual([]);
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ toolCallId: interrupts[0]!.toolCallId });
    expect(ledger).toEqual([
      { toolCallId: interrupts[0]!.toolCallId, tool: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 }, payload: { note: 'sorry' }, attempt: 1 },
    ]);
    const after = await view(store, agent);
    expect(after.status).toBe('idle');
    expect(after.messages.at(-1)!.content).toBe('Refund payment — refunded: yes; order ID: po_42; amount: 19.99.');
    expect(await store.listPendingInterrupts('o1')).toEqual([]);
  });

  it('approve with edits: the tool sees the edited arguments, validated', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    await expect(turn(store, agent, { decisions: [approve(interrupts[0]!.id, { editedArgs: { orderId: 'po_42', amount: -1 } })] })).rejects.toMatchObject({
      code: 'edited_args_invalid',
    });
    await turn(store, agent, { decisions: [approve(interrupts[0]!.id, { editedArgs: { orderId: 'po_42', amount: 5 } })] });
    expect(ledger.map((entry) => entry.input)).toEqual([{ orderId: 'po_42', amount: 5 }]);
  });

  it('deny: the tool never runs and the model is told', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    await expect(turn(store, agent, { decisions: [{ interruptId: interrupts[0]!.id, status: 'denied', editedArgs: {} }] })).rejects.toMatchObject({
      code: 'resume_invalid',
    });
    const parts = await turn(store, agent, { decisions: [{ interruptId: interrupts[0]!.id, status: 'denied', reason: 'too much' }] });
    expect(ledger).toEqual([]);
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ content: expect.stringContaining('too much') });
    expect((await view(store, agent)).messages.at(-1)!.content).toBe("I didn't refund payment: you declined it (“too much”).");
  });

  it('cancel: recorded as cancelled, the tool never runs, the turn ends', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    const parts = await turn(store, agent, { decisions: [{ interruptId: interrupts[0]!.id, status: 'cancelled' }] });
    expect(parts.at(-1)).toEqual({ type: 'run-finished', outcome: { type: 'cancelled' } });
    expect(ledger).toEqual([]);
    const events = (await store.readEvents('s1')).map((stored) => stored.event);
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ status: 'cancelled' });
    expect(events.find((event) => event.type === 'interrupt_decided')).toMatchObject({ decision: { status: 'cancelled' } });
  });

  it('a batch is all or nothing', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_1 for 5 and close ticket T-2');
    expect(interrupts.map((interrupt) => interrupt.toolName)).toEqual(['refundPayment', 'closeTicket']);
    await expect(turn(store, agent, { decisions: [approve(interrupts[0]!.id)] })).rejects.toMatchObject({ code: 'resume_incomplete' });
    await expect(turn(store, agent, { decisions: [approve(interrupts[0]!.id), approve(interrupts[0]!.id)] })).rejects.toMatchObject({
      code: 'resume_duplicate',
    });
    await expect(turn(store, agent, { decisions: [approve('int_nope'), approve(interrupts[1]!.id)] })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
      details: { what: 'interrupt', interruptId: 'int_nope' },
    });
    expect(ledger).toEqual([]);
    await turn(store, agent, { decisions: [approve(interrupts[0]!.id), { interruptId: interrupts[1]!.id, status: 'denied' }] });
    expect(ledger.map((entry) => entry.tool)).toEqual(['refundPayment']);
  });

  it('an identical replay runs nothing twice; a different one is refused', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    const resume = [{ interruptId: interrupts[0]!.id, status: 'resolved' as const, payload: { approved: true } }];
    await turn(store, agent, { decisions: resume, replayable: true });
    const head = (await store.getSession('s1'))!.headSeq;
    const replay = await turn(store, agent, { decisions: resume, replayable: true });
    expect(replay.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(ledger).toHaveLength(1);
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    await expect(turn(store, agent, { decisions: [{ interruptId: interrupts[0]!.id, status: 'denied' }] })).rejects.toMatchObject({
      code: 'interrupt_already_decided',
    });
  });

  it('refuses a resume when the tool schema changed since the pause', async () => {
    const { store, interrupts } = await pausedOn('refund order po_42 for 19.99');
    const changed = makeAgent(z.string());
    await expect(turn(store, changed, { decisions: [approve(interrupts[0]!.id)] })).rejects.toMatchObject({ code: 'tool_schema_changed' });
    expect(ledger).toEqual([]);
  });

  it('an expired interrupt takes its default action (deny) and the session moves on', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99', makeAgent(undefined, '30ms'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(turn(store, agent, { decisions: [approve(interrupts[0]!.id)] })).rejects.toMatchObject({ code: 'interrupt_expired' });
    await (
      await recoverSession(store, () => agent, 's1')
    )?.done;
    const after = await view(store, agent);
    expect(after.interrupts[interrupts[0]!.id]!.decision).toMatchObject({ status: 'denied', expired: true, by: { source: 'expiry' } });
    expect(after.status).toBe('idle');
    expect(ledger).toEqual([]);
  });
});

describe('out-of-band decisions', () => {
  it('the first decision wins; 20 racing deciders run the tool once', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        decideInterrupt({
          store,
          findAgent: () => agent,
          interruptId: interrupts[0]!.id,
          request: index % 2 ? { status: 'approved' } : { status: 'denied' },
          by: { source: 'hitl', ownerId: 'o1' },
        }).then(async (result) => {
          await result.continuation?.done;
          return result;
        }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of results.filter((result) => result.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: 'interrupt_already_decided' });
    }
    const decision = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof decideInterrupt>>>).value.decision;
    expect(ledger).toHaveLength(decision!.status === 'approved' ? 1 : 0);
    expect((await view(store, agent)).status).toBe('idle');
  });

  it('refuses another owner', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    await expect(
      decideInterrupt({
        store,
        findAgent: () => agent,
        interruptId: interrupts[0]!.id,
        request: { status: 'approved' },
        by: { source: 'hitl', ownerId: 'intruder' },
      }),
    ).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('recovery', () => {
  it('carries out an accepted decision whose tool never finished, with attempt 2', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    // As a crashed server leaves it: the decision and tool_started are in the log, no result, lease run out.
    const head = (await store.getSession('s1'))!.headSeq;
    await store.append(
      's1',
      head,
      [
        { type: 'run_started', runId: 'run-2', source: 'hitl' },
        { type: 'interrupt_decided', interruptId: interrupts[0]!.id, decision: { status: 'approved', by: { source: 'hitl' } } },
        { type: 'tool_started', toolCallId: interrupts[0]!.toolCallId, toolName: 'refundPayment', attempt: 1 },
      ],
      { status: 'running', leaseUntil: new Date(Date.now() - 1) },
    );
    expect(await store.listRecoverable(new Date())).toEqual(['s1']);
    await (
      await recoverSession(store, () => agent, 's1')
    )?.done;
    expect(ledger).toEqual([expect.objectContaining({ toolCallId: interrupts[0]!.toolCallId, attempt: 2 })]);
    expect((await view(store, agent)).status).toBe('idle');
  });
});

describe('inside a subagent', () => {
  const publisher = defineDeepAgent({
    name: 'publisher',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: {
      publish: tool({
        inputSchema: z.object({ post: z.string() }),
        execute: async (input) => {
          const { event, attempt } = handlerContext();
          ledger.push({ toolCallId: event.toolCallId, tool: 'publish', input, attempt });
          return { published: input.post };
        },
      }),
    },
    toolApproval: { publish: 'user-approval' },
  });
  const lead = defineDeepAgent({ name: 'lead', model: 'openai/gpt-4o-mini', instructions: 'x', subagents: [publisher] });

  it('an approval raised by a subagent pauses the root run and resumes inside the subagent', async () => {
    ledger = [];
    const store = createMemoryStore();
    const paused = await turn(store, lead, { messages: [user('research call publish {"post":"hello"}')] });
    const [interrupt] = interruptsOf(paused);
    expect(interrupt).toMatchObject({ agent: 'publisher', toolName: 'publish', input: { post: 'hello' }, scope: expect.stringMatching(/^task:/) });
    expect(paused.filter((part) => part.type === 'step-started' || part.type === 'step-finished').map((part) => part.type)).toEqual([
      'step-started',
      'step-finished',
    ]);
    expect(ledger).toEqual([]);
    expect((await view(store, lead)).status).toBe('interrupted');

    const resumed = await turn(store, lead, { decisions: [approve(interrupt!.id)] });
    expect(ledger).toEqual([expect.objectContaining({ tool: 'publish', input: { post: 'hello' }, attempt: 1 })]);
    expect(resumed.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    const after = await view(store, lead);
    const delegation = after.messages.find((message) => message.role === 'tool');
    expect(delegation).toMatchObject({ toolName: 'delegate_task', content: 'Publish — published: hello.' });
    expect(after.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Publish — published: hello.' });
    // The subagent's conversation is its own: the root thread shows only the delegation.
    expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});

describe('requestInput', () => {
  it('pauses the call for an answer, validates it, and the tool gets it when it runs again', async () => {
    const { findAgent } = await import('../../agents/index');
    const planner = findAgent('taskboard')!;
    const store = createMemoryStore();
    const paused = await turn(store, planner, { messages: [user('ask me what to call the launch')] });
    const [interrupt] = interruptsOf(paused);
    expect(interrupt).toMatchObject({
      reason: 'input_required',
      toolName: 'ask_user',
      allowedDecisions: ['approve', 'reject'],
      responseSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    });
    await expect(turn(store, planner, { decisions: [{ interruptId: interrupt!.id, status: 'resolved', payload: { answer: 42 } }] })).rejects.toMatchObject({
      code: 'payload_invalid',
    });
    const resumed = await turn(store, planner, { decisions: [{ interruptId: interrupt!.id, status: 'resolved', payload: { answer: 'Project Lift' } }] });
    const result = resumed.find((part) => part.type === 'tool-result');
    expect(result).toMatchObject({ toolCallId: interrupt!.toolCallId });
    expect(JSON.parse((result as { content: string }).content)).toMatchObject({ answer: 'Project Lift' });
  });
});

describe('an out-of-band decision after an AG-UI resume', () => {
  it('is refused even when it says the same: only a resume may be replayed', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    await turn(store, agent, { decisions: [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } }] });
    await expect(turn(store, agent, { decisions: [approve(interrupts[0]!.id)] })).rejects.toMatchObject({ code: 'interrupt_already_decided' });
    expect(ledger).toHaveLength(1);
  });

  it('the refusal says what was decided and from where, never who: the decider may be another owner', async () => {
    const { store, agent, interrupts } = await pausedOn('refund order po_42 for 19.99');
    await decideInterrupt({
      store,
      findAgent: () => agent,
      interruptId: interrupts[0]!.id,
      request: { status: 'approved' },
      by: { source: 'hitl', ownerId: 'o1', credential: 'key', keyName: 'desk-operator' },
    });
    const refusal = (await turn(store, agent, { decisions: [approve(interrupts[0]!.id)] }).catch((error: unknown) => error)) as {
      code: string;
      details: unknown;
    };
    expect(refusal).toMatchObject({
      code: 'interrupt_already_decided',
      details: { interruptId: interrupts[0]!.id, decision: { status: 'approved', by: { source: 'hitl' } } },
    });
    expect(JSON.stringify(refusal.details)).not.toContain('desk-operator');
  });
});
