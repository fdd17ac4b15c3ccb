// AgentStore on the thread's session stream: what other tabs, other wires and out-of-band
// decisions do to a thread shows in this tab live; this tab's own runs are not shown twice;
// a page rendered mid-run continues the run; a queued run waits for the one on screen.
import type { BaseEvent, Interrupt, Message, RunAgentInput } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentStore, ThreadHttpAgent, type AgentStoreOptions, type EventSourceLike } from './agent-store';

/** The browser's EventSource as the store uses it: the test pushes the server's events. */
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

type Reply = (request: RunAgentInput) => BaseEvent[] | Promise<BaseEvent[]>;

function storeWith(options: Partial<AgentStoreOptions> & { replies?: Reply[]; queueAnswerDelay?: (text: string | undefined) => number } = {}) {
  const sources: FakeEventSource[] = [];
  const requests: RunAgentInput[] = [];
  const stops: unknown[] = [];
  const replies = options.replies ?? [];
  const queueOps: Record<string, unknown>[] = [];
  const stateWrites: Record<string, unknown>[] = [];
  let queue: { id: string; content: string; runId: string; sendNow: boolean }[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    if (url.endsWith('/queue')) {
      // The server's queue, as far as this tab's operations go.
      const op = JSON.parse(String(init.body)) as { op: string; id: string; text?: string };
      queueOps.push(op);
      if (op.op === 'add') queue = [...queue, { id: op.id, content: op.text!, runId: `run-${op.id}`, sendNow: false }];
      else if (op.op === 'edit') queue = queue.map((item) => (item.id === op.id ? { ...item, content: op.text! } : item));
      else if (op.op === 'remove') {
        if (!queue.some((item) => item.id === op.id)) return Response.json({ error: { code: 'not_queued', message: 'gone' } }, { status: 404 });
        queue = queue.filter((item) => item.id !== op.id);
      }
      // The queue as this operation left it, answered after the network's delay.
      const answer = Response.json({ threadId: 'thread-1', queue });
      await new Promise((resolve) => setTimeout(resolve, options.queueAnswerDelay?.(op.text) ?? 0));
      return answer;
    }
    if (url.endsWith('/state')) {
      const body = JSON.parse(String(init.body)) as { state: Record<string, unknown> };
      stateWrites.push(body.state);
      return Response.json({ threadId: 'thread-1', state: { todos: [], ...body.state } });
    }
    if (url.endsWith('/stop')) {
      stops.push(JSON.parse(String(init.body)));
      return Response.json({ stopped: true });
    }
    const request = JSON.parse(String(init.body)) as RunAgentInput;
    requests.push(request);
    const reply = replies.shift();
    if (!reply) throw new Error('No reply left for this request.');
    const events = await reply(request);
    return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), { headers: { 'Content-Type': 'text/event-stream' } });
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
  /** The session stream the store listens to now. */
  const feed = () => {
    const open = sources.filter((source) => source.readyState !== 2);
    expect(open).toHaveLength(1);
    return open[0]!;
  };
  return { store, sources, requests, stops, feed, queueOps, stateWrites };
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'thread-1', runId });
const finished = (runId: string, outcome: unknown = { type: 'success' }) => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId, outcome });
const text = (messageId: string, ...deltas: string[]) => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];
const earlier: Message[] = [
  { id: 'u1', role: 'user', content: 'first' },
  { id: 'a1', role: 'assistant', content: 'one' },
];
const contentOf = (store: AgentStore, id: string) => {
  const message = store.getSnapshot().messages.find((candidate) => candidate.id === id);
  return message && 'content' in message ? message.content : undefined;
};
const settled = (store: AgentStore) => vi.waitFor(() => expect(store.getSnapshot().status).not.toBe('running'));

// HttpAgent warns about events it must repair and logs a run it had to fail: none of that here.
const warn = vi.spyOn(console, 'warn');
const error = vi.spyOn(console, 'error');
afterEach(() => {
  expect(warn).not.toHaveBeenCalled();
  expect(error).not.toHaveBeenCalled();
  warn.mockClear();
  error.mockClear();
});

describe('AgentStore on the session stream', () => {
  it('shows a turn another tab started, live, from the cursor the page was rendered at', async () => {
    const { store, feed } = storeWith({ initialMessages: earlier, cursor: '7' });
    store.attach();
    const url = new URL(feed().url, 'http://app');
    expect(url.pathname).toBe('/api/agents/helpdesk');
    expect(Object.fromEntries(url.searchParams)).toEqual({ threadId: 'thread-1', offset: '7', protocolVersion: '1.0' });

    feed().emit('8', started('r-other'));
    feed().emit('8.1', { type: 'MESSAGES_SNAPSHOT', messages: [...earlier, { id: 'u-other', role: 'user', content: 'from the other tab' }] });
    const [start, hello, there, end] = text('a-other', 'Hello', ' there');
    feed().emit('9.0', start!);
    feed().emit('9.1', hello!);
    await vi.waitFor(() => expect(contentOf(store, 'a-other')).toBe('Hello'));
    expect(store.getSnapshot().status).toBe('running');
    feed().emit('9.2', there!);
    feed().emit('9.3', end!);
    feed().emit('10', finished('r-other'));
    await settled(store);

    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null, streamingMessageId: null });
    expect(store.getSnapshot().messages.map((message) => message.id)).toEqual(['u1', 'a1', 'u-other', 'a-other']);
    expect(contentOf(store, 'a-other')).toBe('Hello there');
  });

  it('does not show its own run twice when the session stream carries it too', async () => {
    const { store, feed, requests } = storeWith({
      initialMessages: earlier,
      replies: [(request) => [started(request.runId), ...text('a2', 'Mine'), finished(request.runId)] as BaseEvent[]],
    });
    store.attach();
    await store.sendMessage('second');
    const runId = requests[0]!.runId;
    feed().emit('3', started(runId));
    for (const [j, event] of text('a2', 'Mine').entries()) feed().emit(`4.${j}`, event);
    feed().emit('5', finished(runId));
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(store.getSnapshot().status).toBe('idle');
    expect(contentOf(store, 'a2')).toBe('Mine');
    expect(store.getSnapshot().messages).toHaveLength(4);
    expect(requests).toHaveLength(1);
  });

  it('drops a card decided with the CLI and streams the continuation that decision started', async () => {
    const close: Interrupt = {
      id: 'int_close',
      reason: 'tool_call',
      toolCallId: 'call_close',
      message: 'Close ticket T-7',
      responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
      metadata: { toolName: 'closeTicket', args: { ticketId: 'T-7' } },
    };
    const withCall: Message[] = [
      { id: 'u1', role: 'user', content: 'close ticket T-7' },
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_close', type: 'function', function: { name: 'closeTicket', arguments: '{"ticketId":"T-7"}' } }],
      },
    ];
    const { store, feed } = storeWith({ initialMessages: withCall, initialInterrupts: [close], interruptedRunId: 'r1', cursor: '5' });
    store.attach();
    expect(store.getSnapshot().interrupts.map((interrupt) => interrupt.id)).toEqual(['int_close']);

    feed().emit('6', { type: 'CUSTOM', name: 'stackbone.interrupt_decided', value: { interruptId: 'int_close', status: 'approved', by: 'cli' } });
    expect(store.getSnapshot().interrupts).toEqual([]);

    feed().emit('7', started('r2'));
    feed().emit('8', { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'call_close', content: '{"closed":true}', role: 'tool' });
    for (const [j, event] of text('a2', 'Ticket T-7 is closed.').entries()) feed().emit(`9.${j}`, event);
    feed().emit('10', finished('r2'));
    await settled(store);

    expect(store.getSnapshot().status).toBe('idle');
    expect(store.getSnapshot().messages.find((message) => message.role === 'tool')).toMatchObject({ toolCallId: 'call_close', content: '{"closed":true}' });
    expect(contentOf(store, 'a2')).toBe('Ticket T-7 is closed.');
    // The thread is free again: the next message is sent, not refused by stale interrupts.
    expect(store.getSnapshot().interrupts).toEqual([]);
  });

  it('stops a run from elsewhere at the last event it showed', async () => {
    const { store, feed, stops } = storeWith({ initialMessages: earlier, cursor: '7' });
    store.attach();
    feed().emit('8', started('r-other'));
    const [start, hello, there, end] = text('a-other', 'Hello', ' there');
    feed().emit('9.0', start!);
    feed().emit('9.1', hello!);
    await vi.waitFor(() => expect(contentOf(store, 'a-other')).toBe('Hello'));
    await store.stop();
    expect(stops).toEqual([{ threadId: 'thread-1', runId: 'r-other', frontier: '9.1' }]);
    // What the server kept, then the end of the run.
    feed().emit('9.2', there!);
    feed().emit('9.3', end!);
    feed().emit('10', { type: 'MESSAGES_SNAPSHOT', messages: [...earlier, { id: 'a-other', role: 'assistant', content: 'Hello' }] });
    feed().emit('10.1', finished('r-other', { type: 'cancelled' }));
    await settled(store);
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null });
    expect(contentOf(store, 'a-other')).toBe('Hello');
  });

  it('goes on with the run a page was rendered in the middle of', async () => {
    const { store, feed } = storeWith({ initialMessages: earlier, activeRunId: 'r-live', cursor: '12' });
    store.attach();
    // Running at once: the run's start is behind the cursor, its end is still to come.
    expect(store.getSnapshot().status).toBe('running');
    for (const [j, event] of text('a-live', 'still', ' going').entries()) feed().emit(`13.${j}`, event);
    feed().emit('14', finished('r-live'));
    await settled(store);
    expect(store.getSnapshot().status).toBe('idle');
    expect(contentOf(store, 'a-live')).toBe('still going');
  });

  it('shows a run that arrives during its own after its own has ended', async () => {
    let source: FakeEventSource | undefined;
    const { store, feed } = storeWith({
      initialMessages: earlier,
      replies: [
        (request) => {
          // While this tab's run is in flight, the stream announces a run from elsewhere.
          source!.emit('20', started('r-next'));
          for (const [j, event] of text('a-next', 'next').entries()) source!.emit(`21.${j}`, event);
          source!.emit('22', finished('r-next'));
          return [started(request.runId), ...text('a-mine', 'mine'), finished(request.runId)] as BaseEvent[];
        },
      ],
    });
    store.attach();
    source = feed();
    await store.sendMessage('go');
    await settled(store);
    expect(store.getSnapshot().status).toBe('idle');
    expect(contentOf(store, 'a-mine')).toBe('mine');
    expect(contentOf(store, 'a-next')).toBe('next');
  });

  it('resumes after the last event it received when the page attaches again', async () => {
    const { store, sources } = storeWith({ initialMessages: earlier, cursor: '3' });
    store.attach();
    sources[0]!.emit('4', started('r-x'));
    sources[0]!.emit('5.0', { type: 'TEXT_MESSAGE_START', messageId: 'a-x', role: 'assistant' });
    store.detach();
    expect(sources[0]!.readyState).toBe(2);
    store.attach();
    expect(new URL(sources[1]!.url, 'http://app').searchParams.get('offset')).toBe('5.0');
    // The run that was on screen continues where the stream left off.
    sources[1]!.emit('5.1', { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a-x', delta: 'resumed' });
    sources[1]!.emit('5.2', { type: 'TEXT_MESSAGE_END', messageId: 'a-x' });
    sources[1]!.emit('6', finished('r-x'));
    await settled(store);
    expect(contentOf(store, 'a-x')).toBe('resumed');
  });

  it('listens to a new thread from its first run on', async () => {
    const { store, sources } = storeWith({
      replies: [(request) => [started(request.runId), ...text('a1', 'hi'), finished(request.runId)] as BaseEvent[]],
    });
    store.attach();
    expect(sources).toHaveLength(0);
    await store.sendMessage('hello');
    expect(sources).toHaveLength(1);
    expect(new URL(sources[0]!.url, 'http://app').searchParams.get('offset')).toBe('-1');
  });
});

describe('AgentStore: the message queue', () => {
  it('a message sent while a decision is pending is queued, not dropped; edits and removals show at once; another tab sees the queue live', async () => {
    const pendingInterrupt = { id: 'int_1', reason: 'tool_approval', message: 'Refund?', toolCallId: 'call_1' } as unknown as Interrupt;
    const { store, requests, queueOps, feed } = storeWith({
      initialMessages: earlier,
      initialInterrupts: [pendingInterrupt],
      interruptedRunId: 'r0',
      cursor: '4',
    });
    store.attach();
    expect(await store.sendMessage('and check po_42 too')).toBe(true);
    expect(requests).toHaveLength(0);
    expect(queueOps[0]).toMatchObject({ threadId: 'thread-1', op: 'add', text: 'and check po_42 too' });
    const [item] = store.getSnapshot().queue;
    expect(item).toMatchObject({ content: 'and check po_42 too' });

    expect(await store.editQueued(item!.id, 'and check po_43 too')).toBe(true);
    expect(store.getSnapshot().queue.map((queued) => queued.content)).toEqual(['and check po_43 too']);
    expect(await store.removeQueued(item!.id)).toBe(true);
    expect(store.getSnapshot().queue).toEqual([]);
    // Removed already (here, or by another tab): refused with the server's reason; nothing else changes.
    expect(await store.removeQueued(item!.id)).toBe(false);
    expect(store.getSnapshot().error).toMatchObject({ code: 'not_queued', refused: true });

    // Another tab queued something: the session stream says so.
    feed().emit('', { type: 'CUSTOM', name: 'stackbone.queue', value: { queue: [{ id: 'q9', content: 'from the other tab', runId: 'r9', sendNow: false }] } });
    expect(store.getSnapshot().queue.map((queued) => queued.content)).toEqual(['from the other tab']);
    // While something is queued, a new message goes behind it.
    expect(await store.sendMessage('after that')).toBe(true);
    expect(queueOps.at(-1)).toMatchObject({ op: 'add', text: 'after that' });
    expect(requests).toHaveLength(0);
  });

  it('two messages queued in a row both show, in the order sent, though the first answer is slower than the second', async () => {
    const pendingInterrupt = { id: 'int_1', reason: 'tool_approval', message: 'Refund?', toolCallId: 'call_1' } as unknown as Interrupt;
    const { store, queueOps } = storeWith({
      initialMessages: earlier,
      initialInterrupts: [pendingInterrupt],
      interruptedRunId: 'r0',
      cursor: '4',
      queueAnswerDelay: (text) => (text === 'say 2 words' ? 50 : 0),
    });
    store.attach();
    expect(await Promise.all([store.sendMessage('say 2 words'), store.sendMessage('say 5 words')])).toEqual([true, true]);
    expect(queueOps.map((op) => op.text)).toEqual(['say 2 words', 'say 5 words']);
    expect(store.getSnapshot().queue.map((queued) => queued.content)).toEqual(['say 2 words', 'say 5 words']);
  });
});

describe('AgentStore: shared state between turns', () => {
  it('saves a state edit once the typing pauses, without a message, as one write of the last value', async () => {
    vi.useFakeTimers();
    try {
      const { store, requests, stateWrites } = storeWith({ initialState: { todos: [], draft: '' } });
      store.setState({ draft: 'La' });
      store.setState({ draft: 'Launch on Tuesday' });
      expect(store.getSnapshot().state).toEqual({ todos: [], draft: 'Launch on Tuesday' });
      expect(stateWrites).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(stateWrites).toEqual([{ draft: 'Launch on Tuesday' }]);
      expect(requests).toHaveLength(0);
      expect(store.getSnapshot()).toMatchObject({ state: { todos: [], draft: 'Launch on Tuesday' }, threadExists: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
