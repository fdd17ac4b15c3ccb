// AgentStore's interrupts over a real HttpAgent and canned AG-UI streams: staging decisions,
// one resume per batch, the payload shapes the server expects, retry after a refusal, and
// interrupts restored from the first paint.
import type { BaseEvent, Interrupt, RunAgentInput } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentStore, ThreadHttpAgent } from './agent-store';

type Reply = BaseEvent[];

function storeWith(replies: Reply[], options: { initialInterrupts?: Interrupt[]; interruptedRunId?: string } = {}) {
  const requests: RunAgentInput[] = [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    requests.push(JSON.parse(String(init.body)) as RunAgentInput);
    const reply = replies.shift();
    if (!reply) throw new Error('No reply left for this request.');
    return new Response(reply.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), { headers: { 'Content-Type': 'text/event-stream' } });
  };
  const store = new AgentStore({ agent: 'helpdesk', threadId: 'thread-1', ...options, createAgent: (config) => new ThreadHttpAgent({ ...config, fetch }) });
  return { store, requests };
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'thread-1', runId });
const finished = (runId: string, outcome: unknown = { type: 'success' }) => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId, outcome });
const call = (toolCallId: string, name: string, args: object) => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName: name, parentMessageId: 'm1' },
  { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify(args) },
  { type: 'TOOL_CALL_END', toolCallId },
];

const refund: Interrupt = {
  id: 'int_refund',
  reason: 'tool_call',
  toolCallId: 'call_refund',
  message: 'Refund order po_42 for 19.99',
  responseSchema: {
    type: 'object',
    required: ['approved'],
    additionalProperties: false,
    properties: {
      approved: { type: 'boolean' },
      reason: { type: 'string' },
      editedArgs: {
        type: 'object',
        required: ['orderId', 'amount'],
        additionalProperties: false,
        properties: { orderId: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0 } },
      },
      payload: { type: 'object', additionalProperties: false, properties: { note: { type: 'string', maxLength: 500 } } },
    },
  },
  metadata: {
    description: 'Refund order po_42 for 19.99',
    allowedDecisions: ['approve', 'reject', 'edit'],
    toolName: 'refundPayment',
    args: { orderId: 'po_42', amount: 19.99 },
  },
};
const close: Interrupt = {
  id: 'int_close',
  reason: 'tool_call',
  toolCallId: 'call_close',
  message: 'closeTicket({"ticketId":"T-2"})',
  responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' }, reason: { type: 'string' } } },
  metadata: { allowedDecisions: ['approve', 'reject'], toolName: 'closeTicket', args: { ticketId: 'T-2' } },
};
const question: Interrupt = {
  id: 'int_ask',
  reason: 'input_required',
  toolCallId: 'call_ask',
  message: 'What should the launch be called?',
  responseSchema: { type: 'object', required: ['answer'], properties: { answer: { type: 'string', minLength: 1 } } },
  metadata: { allowedDecisions: ['approve', 'reject'], toolName: 'ask_user', args: { question: 'What should the launch be called?' } },
};

const transfer: Interrupt = {
  id: 'int_transfer',
  reason: 'tool_call',
  toolCallId: 'call_transfer',
  message: 'transfer({"amount":5000})',
  // One branch per decision: data to approve, data to reject.
  responseSchema: {
    oneOf: [
      {
        type: 'object',
        required: ['approved'],
        additionalProperties: false,
        properties: { approved: { const: true }, payload: { type: 'object', properties: { note: { type: 'string' } } } },
      },
      {
        type: 'object',
        required: ['approved', 'payload'],
        additionalProperties: false,
        properties: {
          approved: { const: false },
          reason: { type: 'string' },
          payload: { type: 'object', required: ['reason'], properties: { reason: { type: 'string', enum: ['Policy limit', 'Suspected fraud'] } } },
        },
      },
    ],
  },
  metadata: { allowedDecisions: ['approve', 'reject'], toolName: 'transfer', args: { amount: 5000 } },
};

const paused = (runId: string, ...interrupts: Interrupt[]) =>
  [
    started(runId),
    ...interrupts.flatMap((i) => call(i.toolCallId!, String(i.metadata!.toolName), i.metadata!.args as object)),
    finished(runId, { type: 'interrupt', interrupts }),
  ] as BaseEvent[];
const resumed = (runId: string, ...toolCallIds: string[]) =>
  [
    started(runId),
    ...toolCallIds.map((toolCallId, i) => ({ type: 'TOOL_CALL_RESULT', messageId: `r${i}`, toolCallId, content: '{}', role: 'tool' })),
    finished(runId),
  ] as BaseEvent[];

const warn = vi.spyOn(console, 'warn');
afterEach(() => {
  expect(warn).not.toHaveBeenCalled();
  warn.mockClear();
});

describe('AgentStore interrupts', () => {
  it('a single approval submits on its decision, with edits and approval data, naming the paused run', async () => {
    const { store, requests } = storeWith([paused('r1', refund), resumed('r2', 'call_refund')]);
    await store.sendMessage('refund order po_42 for 19.99');
    const [pending] = store.getSnapshot().interrupts;
    expect(pending).toMatchObject({ id: 'int_refund', toolName: 'refundPayment', allowedDecisions: ['approve', 'reject', 'edit'], resolution: null });

    await pending!.resolveInterrupt(true, { editedArgs: { orderId: 'po_42', amount: 5 }, payload: { note: 'goodwill' } });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.resume).toEqual([
      {
        interruptId: 'int_refund',
        status: 'resolved',
        payload: { approved: true, editedArgs: { orderId: 'po_42', amount: 5 }, payload: { note: 'goodwill' } },
      },
    ]);
    expect((requests[1] as RunAgentInput & { parentRunId?: string }).parentRunId).toBe('r1');
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', interrupts: [] });
  });

  it('a batch waits for its last decision and goes as one resume', async () => {
    const { store, requests } = storeWith([paused('r1', refund, close), resumed('r2', 'call_refund', 'call_close')]);
    await store.sendMessage('refund order po_1 for 5 and close ticket T-2');
    const [first, second] = store.getSnapshot().interrupts;

    await first!.resolveInterrupt(true);
    expect(requests).toHaveLength(1);
    expect(store.getSnapshot().interrupts[0]!.resolution).toMatchObject({ kind: 'approve', problems: [] });

    await second!.resolveInterrupt(false, { reason: 'not yet' });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.resume).toEqual([
      { interruptId: 'int_refund', status: 'resolved', payload: { approved: true } },
      { interruptId: 'int_close', status: 'resolved', payload: { approved: false, reason: 'not yet' } },
    ]);
  });

  it('an invalid decision is staged with its problems and does not submit', async () => {
    const { store, requests } = storeWith([paused('r1', refund, close)]);
    await store.sendMessage('go');
    await store.getSnapshot().interrupts[1]!.resolveInterrupt(true);
    await store.getSnapshot().interrupts[0]!.resolveInterrupt(true, { editedArgs: { orderId: 'po_42', amount: -1 } });
    expect(requests).toHaveLength(1);
    expect(store.getSnapshot().interrupts[0]!.resolution!.problems).toEqual(['Arguments: amount: must be more than 0']);

    store.getSnapshot().interrupts[1]!.clearResolution();
    expect(store.getSnapshot().interrupts[1]!.resolution).toBeNull();
  });

  it('resolveInterrupts decides the batch with a function; cancelInterrupts cancels it', async () => {
    const { store, requests } = storeWith([
      paused('r1', refund, close),
      resumed('r2', 'call_refund'),
      paused('r3', close),
      [started('r4'), finished('r4', { type: 'cancelled' })] as BaseEvent[],
    ]);
    await store.sendMessage('go');
    await store.resolveInterrupts((interrupt) => (interrupt.toolName === 'refundPayment' ? { approved: true, payload: { note: 'ok' } } : false));
    expect(requests[1]!.resume!.map((entry) => entry.payload)).toEqual([{ approved: true, payload: { note: 'ok' } }, { approved: false }]);

    await store.sendMessage('again');
    await store.cancelInterrupts();
    expect(requests[3]!.resume).toEqual([{ interruptId: 'int_close', status: 'cancelled' }]);
  });

  it('resolveInterrupts takes a callback that resolves each interrupt itself and returns nothing: one resume for the batch', async () => {
    const { store, requests } = storeWith([paused('r1', refund, close, question), resumed('r2', 'call_refund', 'call_ask')]);
    await store.sendMessage('go');
    expect(store.getSnapshot().interrupts.map(({ kind, toolName }) => ({ kind, toolName }))).toEqual([
      { kind: 'tool-approval', toolName: 'refundPayment' },
      { kind: 'tool-approval', toolName: 'closeTicket' },
      { kind: 'input', toolName: 'ask_user' },
    ]);
    await store.resolveInterrupts((interrupt) => {
      if (interrupt.kind === 'tool-approval' && interrupt.toolName === 'refundPayment')
        void interrupt.resolveInterrupt(true, { payload: { note: 'Batch review' } });
      else if (interrupt.kind === 'tool-approval') void interrupt.cancel();
      else void interrupt.resolveInterrupt(true, { payload: { answer: 'Aurora' } });
    });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.resume).toEqual([
      { interruptId: 'int_refund', status: 'resolved', payload: { approved: true, payload: { note: 'Batch review' } } },
      { interruptId: 'int_close', status: 'cancelled' },
      { interruptId: 'int_ask', status: 'resolved', payload: { answer: 'Aurora' } },
    ]);
  });

  it('resolveInterrupts with a callback that leaves one undecided sends nothing yet', async () => {
    const { store, requests } = storeWith([paused('r1', refund, close)]);
    await store.sendMessage('go');
    await store.resolveInterrupts((interrupt) => {
      if (interrupt.toolName === 'closeTicket') void interrupt.resolveInterrupt(true);
    });
    expect(requests).toHaveLength(1);
    expect(store.getSnapshot().interrupts.map((interrupt) => interrupt.resolution?.kind ?? null)).toEqual([null, 'approve']);
  });

  it('a rejection carries data checked against the reject branch of the schema', async () => {
    const { store, requests } = storeWith([paused('r1', transfer), resumed('r2', 'call_transfer')]);
    await store.sendMessage('call transfer');
    const [pending] = store.getSnapshot().interrupts;
    await pending!.resolveInterrupt(false, { payload: { reason: 'Because' } });
    expect(requests).toHaveLength(1);
    expect(store.getSnapshot().interrupts[0]!.resolution!.problems).toEqual(['Details: reason: must be one of "Policy limit", "Suspected fraud"']);

    await store.getSnapshot().interrupts[0]!.resolveInterrupt(false, { payload: { reason: 'Policy limit' } });
    expect(requests[1]!.resume).toEqual([
      { interruptId: 'int_transfer', status: 'resolved', payload: { approved: false, payload: { reason: 'Policy limit' } } },
    ]);
  });

  it('an answer to requested input is the payload itself', async () => {
    const { store, requests } = storeWith([paused('r1', question), resumed('r2', 'call_ask')]);
    await store.sendMessage('ask me for a launch name');
    const [ask] = store.getSnapshot().interrupts;
    await ask!.resolveInterrupt(true, { payload: { answer: '' } });
    expect(requests).toHaveLength(1);
    await ask!.resolveInterrupt(true, { payload: { answer: 'Aurora' } });
    expect(requests[1]!.resume).toEqual([{ interruptId: 'int_ask', status: 'resolved', payload: { answer: 'Aurora' } }]);
  });

  it('keeps the staged batch after a failure that resending may fix, and retryInterrupts sends it again', async () => {
    const { store, requests } = storeWith([
      paused('r1', close),
      [started('r2'), { type: 'RUN_ERROR', code: 'session_busy', message: 'busy' }] as BaseEvent[],
      resumed('r3', 'call_close'),
    ]);
    await store.sendMessage('close ticket T-2');
    await store.getSnapshot().interrupts[0]!.resolveInterrupt(true);
    expect(store.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'session_busy' }, canRetryInterrupts: true });
    expect(store.getSnapshot().interrupts[0]!.resolution).toMatchObject({ kind: 'approve' });

    await store.retryInterrupts();
    expect(requests[2]!.resume).toEqual(requests[1]!.resume);
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null, interrupts: [], canRetryInterrupts: false });
  });

  it('does not resend decisions the server refused for good (a changed tool, an expiry)', async () => {
    for (const code of ['tool_schema_changed', 'interrupt_expired']) {
      const { store, requests } = storeWith([paused('r1', close), [started('r2'), { type: 'RUN_ERROR', code, message: 'refused' }] as BaseEvent[]]);
      await store.sendMessage('close ticket T-2');
      await store.getSnapshot().interrupts[0]!.resolveInterrupt(true);
      expect(store.getSnapshot()).toMatchObject({ status: 'error', error: { code }, canRetryInterrupts: false });
      await store.retryInterrupts();
      expect(requests).toHaveLength(2);
    }
  });

  it('interrupts from the first paint make the next run a resume', async () => {
    const { store, requests } = storeWith([resumed('r2', 'call_close')], { initialInterrupts: [close], interruptedRunId: 'r1' });
    expect(store.getSnapshot().interrupts.map((interrupt) => interrupt.id)).toEqual(['int_close']);
    await store.getSnapshot().interrupts[0]!.resolveInterrupt(true);
    expect(requests[0]).toMatchObject({ resume: [{ interruptId: 'int_close', status: 'resolved', payload: { approved: true } }], parentRunId: 'r1' });
  });

  it('forgets interrupts the server already decided without this tab', async () => {
    const { store } = storeWith([[started('r2'), { type: 'RUN_ERROR', code: 'interrupt_already_decided', message: 'decided' }] as BaseEvent[]], {
      initialInterrupts: [close],
    });
    await store.getSnapshot().interrupts[0]!.resolveInterrupt(true);
    expect(store.getSnapshot()).toMatchObject({ status: 'error', interrupts: [] });
  });
});
