// AgentStore's record of what became of decided and stopped tool calls (docs/hitl.md,
// "Decisions in the chat"): seeded from the first paint, then kept by toolCallId from the
// `stackbone.interrupt_decided` and `stackbone.tools_stopped` events — in this tab's resume,
// in a run another tab or the CLI started, and on the session stream outside any run.
import type { Interrupt, Message, RunAgentInput } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DecisionRecord } from '@/server/contract';
import { AgentStore, ThreadHttpAgent, agentView, type AgentStoreOptions, type EventSourceLike } from './agent-store';

class FakeEventSource implements EventSourceLike {
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readyState = 1;
  constructor(readonly url: string) {}
  close() {
    this.readyState = 2;
  }
  emit(id: string, event: object) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(event), lastEventId: id }));
  }
}

function storeWith(options: Partial<AgentStoreOptions> & { replies?: ((request: RunAgentInput) => object[])[] } = {}) {
  const sources: FakeEventSource[] = [];
  const requests: RunAgentInput[] = [];
  const replies = options.replies ?? [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const request = JSON.parse(String(init.body)) as RunAgentInput;
    requests.push(request);
    const reply = replies.shift();
    if (!reply) throw new Error('No reply left for this request.');
    return new Response(
      reply(request)
        .map((event) => `data: ${JSON.stringify(event)}\n\n`)
        .join(''),
      { headers: { 'Content-Type': 'text/event-stream' } },
    );
  };
  const store = new AgentStore({
    agent: 'helpdesk',
    threadId: 'thread-1',
    ...options,
    createAgent: (config) => new ThreadHttpAgent({ ...config, fetch }),
    createEventSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
  });
  const feed = () => sources.find((source) => source.readyState !== 2)!;
  return { store, feed, requests };
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'thread-1', runId });
const finished = (runId: string, outcome: unknown = { type: 'success' }) => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId, outcome });
const settled = (store: AgentStore) => vi.waitFor(() => expect(store.getSnapshot().status).not.toBe('running'));

const refund: Interrupt = {
  id: 'int_refund',
  reason: 'tool_call',
  toolCallId: 'call_refund',
  message: 'Refund order po_42 for 19.99',
  responseSchema: {
    type: 'object',
    required: ['approved'],
    properties: {
      approved: { type: 'boolean' },
      reason: { type: 'string' },
      editedArgs: { type: 'object', required: ['orderId', 'amount'], properties: { orderId: { type: 'string' }, amount: { type: 'number' } } },
    },
  },
  metadata: { allowedDecisions: ['approve', 'reject', 'edit'], toolName: 'refundPayment', args: { orderId: 'po_42', amount: 19.99 } },
};
const close: Interrupt = {
  id: 'int_close',
  reason: 'tool_call',
  toolCallId: 'call_close',
  message: 'Close ticket T-7',
  responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' }, reason: { type: 'string' } } },
  metadata: { allowedDecisions: ['approve', 'reject'], toolName: 'closeTicket', args: { ticketId: 'T-7' } },
};
const calling: Message[] = [
  { id: 'u1', role: 'user', content: 'refund po_42 and close T-7' },
  {
    id: 'a1',
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_refund', type: 'function', function: { name: 'refundPayment', arguments: '{"orderId":"po_42","amount":19.99}' } },
      { id: 'call_close', type: 'function', function: { name: 'closeTicket', arguments: '{"ticketId":"T-7"}' } },
    ],
  },
];

/** The record the server sends, as `stackbone.interrupt_decided`'s value (by: the source alone). */
const decidedValue = (record: DecisionRecord) => {
  const { by, ...rest } = record;
  return { ...rest, by: by.source, ...(by.credential ? { credential: by.credential } : {}) };
};
const editedRefund: DecisionRecord = {
  interruptId: 'int_refund',
  toolCallId: 'call_refund',
  toolName: 'refundPayment',
  interruptReason: 'tool_call',
  status: 'approved',
  argsAsked: { orderId: 'po_42', amount: 19.99 },
  editedArgs: { orderId: 'po_42', amount: 15 },
  by: { source: 'agui', credential: 'browser' },
  at: '2025-05-01T13:34:00.000Z',
};
const rejectedClose: DecisionRecord = {
  interruptId: 'int_close',
  toolCallId: 'call_close',
  toolName: 'closeTicket',
  interruptReason: 'tool_call',
  status: 'denied',
  argsAsked: { ticketId: 'T-7' },
  reason: 'not yet',
  by: { source: 'hitl', credential: 'key' },
  at: '2025-05-01T13:35:00.000Z',
};

const warn = vi.spyOn(console, 'warn');
const error = vi.spyOn(console, 'error');
afterEach(() => {
  expect(warn).not.toHaveBeenCalled();
  expect(error).not.toHaveBeenCalled();
  warn.mockClear();
  error.mockClear();
});

describe('decisions in the store', () => {
  it('shows the first paint’s decisions and stopped calls by toolCallId, as useAgent hands them out', () => {
    const { store } = storeWith({ initialMessages: calling, initialDecisions: [editedRefund, rejectedClose], initialStoppedToolCallIds: ['call_old'] });
    const view = agentView(store.getSnapshot());
    expect(view.decisions).toEqual({ call_refund: editedRefund, call_close: rejectedClose });
    expect(view.stoppedToolCallIds).toEqual(['call_old']);
  });

  it('records the decisions its own resume carries, with the edited arguments that ran', async () => {
    const { store, requests } = storeWith({
      initialMessages: calling,
      initialInterrupts: [refund, close],
      interruptedRunId: 'r1',
      replies: [
        (request) => [
          started(request.runId),
          { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: decidedValue(editedRefund) },
          { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: decidedValue({ ...rejectedClose, by: { source: 'agui', credential: 'browser' } }) },
          { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'call_refund', content: '{"refunded":true,"amount":15}', role: 'tool' },
          finished(request.runId),
        ],
      ],
    });
    expect(store.getSnapshot().decisions).toEqual({});
    await store.resolveInterrupt('int_refund', true, { editedArgs: { orderId: 'po_42', amount: 15 } });
    await store.resolveInterrupt('int_close', false, { reason: 'not yet' });
    await settled(store);

    expect(requests).toHaveLength(1);
    const { decisions } = store.getSnapshot();
    expect(decisions.call_refund).toEqual(editedRefund);
    expect(decisions.call_close).toMatchObject({ status: 'denied', reason: 'not yet', by: { source: 'agui' } });
    expect(store.getSnapshot().interrupts).toEqual([]);
  });

  it('records a decision made with the CLI outside any run, and the one its continuation carries', async () => {
    const { store, feed } = storeWith({ initialMessages: calling, initialInterrupts: [refund, close], interruptedRunId: 'r1', cursor: '5' });
    store.attach();

    feed().emit('6', { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: decidedValue(rejectedClose) });
    expect(store.getSnapshot().decisions).toEqual({ call_close: rejectedClose });
    expect(store.getSnapshot().interrupts.map((interrupt) => interrupt.id)).toEqual(['int_refund']);

    const approved: DecisionRecord = {
      interruptId: 'int_refund',
      toolCallId: 'call_refund',
      toolName: 'refundPayment',
      interruptReason: 'tool_call',
      status: 'approved',
      argsAsked: { orderId: 'po_42', amount: 19.99 },
      by: { source: 'hitl', credential: 'key' },
      at: '2025-05-01T13:36:00.000Z',
    };
    feed().emit('7', started('r2'));
    feed().emit('8', { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: decidedValue(approved) });
    feed().emit('9', { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'call_refund', content: '{"refunded":true}', role: 'tool' });
    feed().emit('10', finished('r2'));
    await settled(store);

    expect(store.getSnapshot().decisions).toEqual({ call_close: rejectedClose, call_refund: approved });
    expect(store.getSnapshot().interrupts).toEqual([]);
  });

  it('marks the calls a stop cut in a run it follows', async () => {
    const { store, feed } = storeWith({ initialMessages: [{ id: 'u1', role: 'user', content: 'go' }], cursor: '3' });
    store.attach();
    feed().emit('4', started('r-other'));
    feed().emit('5', { type: 'TOOL_CALL_START', toolCallId: 'call_slow', toolCallName: 'slow', parentMessageId: 'a1' });
    feed().emit('5.1', { type: 'TOOL_CALL_END', toolCallId: 'call_slow' });
    feed().emit('6', {
      type: 'TOOL_CALL_RESULT',
      messageId: 't1',
      toolCallId: 'call_slow',
      content: 'The run was stopped before the tool finished.',
      role: 'tool',
    });
    feed().emit('7', { type: 'CUSTOM', name: 'stackbone.tools_stopped', value: { toolCallIds: ['call_slow'] } });
    feed().emit('7.1', finished('r-other', { type: 'cancelled' }));
    await settled(store);

    expect(store.getSnapshot().stoppedToolCallIds).toEqual(['call_slow']);
  });

  it('leaves out a decision whose event says too little to show, and still takes its card away', () => {
    const { store, feed } = storeWith({ initialMessages: calling, initialInterrupts: [close], interruptedRunId: 'r1', cursor: '5' });
    store.attach();
    feed().emit('6', { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: { interruptId: 'int_close', status: 'approved', by: 'cli' } });
    expect(store.getSnapshot().interrupts).toEqual([]);
    expect(store.getSnapshot().decisions).toEqual({});
  });
});
