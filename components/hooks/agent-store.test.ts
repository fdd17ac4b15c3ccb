// AgentStore over a real HttpAgent, with fetch answering canned AG-UI streams: live text,
// the frontend-tool round trip, state riding along with the next run, and failures.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentStore, ThreadHttpAgent, type AgentSnapshot, type FrontendTool } from './agent-store';

type Reply = BaseEvent[] | { status: number; body: unknown } | ((request: RunAgentInput) => BaseEvent[]);

/** A fetch that answers each request with the next reply, and records the request bodies. */
function fakeServer(replies: Reply[]) {
  const requests: RunAgentInput[] = [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const request = JSON.parse(String(init.body)) as RunAgentInput;
    requests.push(request);
    const next = replies.shift();
    const reply = typeof next === 'function' ? next(request) : next;
    if (!reply) throw new Error('No reply left for this request.');
    if (!Array.isArray(reply)) return Response.json(reply.body, { status: reply.status });
    const text = reply.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
    return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
  };
  return { requests, fetch };
}

function storeWith(replies: Reply[], options: { tools?: FrontendTool[]; initialState?: Record<string, unknown>; initialMessages?: Message[] } = {}) {
  const server = fakeServer(replies);
  const store = new AgentStore({
    agent: 'taskboard',
    threadId: 'thread-1',
    initialState: options.initialState,
    initialMessages: options.initialMessages,
    tools: options.tools,
    createAgent: (config) => new ThreadHttpAgent({ ...config, fetch: server.fetch }),
  });
  const snapshots: AgentSnapshot[] = [];
  store.subscribe(() => snapshots.push(store.getSnapshot()));
  return { store, snapshots, requests: server.requests };
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'thread-1', runId });
const finished = (runId: string, outcome: unknown = { type: 'success' }) => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId, outcome });
const text = (messageId: string, ...deltas: string[]) => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];

const warn = vi.spyOn(console, 'warn');
afterEach(() => {
  // HttpAgent warns about events it must repair; the canned streams must need none.
  expect(warn).not.toHaveBeenCalled();
  warn.mockClear();
});

describe('AgentStore', () => {
  it('renders streamed text as it arrives and ends idle', async () => {
    const { store, snapshots, requests } = storeWith([[started('r1'), ...text('m1', 'Hello', ' there'), finished('r1')] as BaseEvent[]]);
    await store.sendMessage('hi');

    const contents = snapshots.map((s) => s.messages.find((m) => m.id === 'm1')).map((m) => (m && 'content' in m ? m.content : undefined));
    expect(contents).toContain('Hello');
    expect(contents).toContain('Hello there');
    expect(snapshots.some((s) => s.streamingMessageId === 'm1')).toBe(true);
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null, streamingMessageId: null, threadExists: true });
    expect(requests[0]!.messages).toEqual([expect.objectContaining({ role: 'user', content: 'hi' })]);
  });

  it("keeps the model's reasoning as a message before its answer, streaming it live, and sends it back with the history", async () => {
    const reasoning = [
      { type: 'REASONING_START', messageId: 'r1' },
      { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'Weighing' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: ' it.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r1', encryptedValue: '{"anthropic":{"signature":"sig"}}' },
      { type: 'REASONING_END', messageId: 'r1' },
    ];
    const { store, snapshots, requests } = storeWith([
      [started('run1'), ...reasoning, ...text('m1', 'Done.'), finished('run1')] as BaseEvent[],
      [started('run2'), ...text('m2', 'Hi.'), finished('run2')] as BaseEvent[],
    ]);
    await store.sendMessage('think it over');

    expect(snapshots.some((s) => s.streamingReasoningId === 'r1' && s.messages.some((m) => m.id === 'r1' && m.content === 'Weighing'))).toBe(true);
    expect(store.getSnapshot().streamingReasoningId).toBeNull();
    expect(store.getSnapshot().messages.map((m) => m.role)).toEqual(['user', 'reasoning', 'assistant']);
    expect(store.getSnapshot().messages[1]).toEqual({
      id: 'r1',
      role: 'reasoning',
      content: 'Weighing it.',
      encryptedValue: '{"anthropic":{"signature":"sig"}}',
    });
    await store.sendMessage('thanks');
    expect(requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'reasoning', 'assistant', 'user']);
  });

  it('answers a frontend tool in the browser and continues in a follow-up run', async () => {
    const handler = vi.fn(async ({ name }: { name: string }) => ({ greeted: name }));
    const tools: FrontendTool[] = [{ name: 'greet', description: 'Greets someone', parameters: { type: 'object' }, handler }];
    const { store, requests } = storeWith(
      [
        [
          started('r1'),
          { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'greet', parentMessageId: 'm1' },
          { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"name":"Ada"}' },
          { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
          finished('r1', { type: 'success', pendingToolCallIds: ['call_1'] }),
        ] as BaseEvent[],
        [started('r2'), ...text('m2', 'Done.'), finished('r2')] as BaseEvent[],
      ],
      { tools },
    );
    await store.sendMessage('greet Ada');

    expect(handler).toHaveBeenCalledWith({ name: 'Ada' }, expect.objectContaining({ toolCallId: 'call_1' }));
    expect(requests).toHaveLength(2);
    expect(requests[0]!.tools).toEqual([{ name: 'greet', description: 'Greets someone', parameters: { type: 'object' } }]);
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1', content: '{"greeted":"Ada"}' });
    expect(store.getSnapshot().status).toBe('idle');
  });

  it('sends a failing frontend tool back as an error result', async () => {
    const tools: FrontendTool[] = [
      {
        name: 'boom',
        description: 'Fails',
        handler: () => {
          throw new Error('no can do');
        },
      },
    ];
    const { store, requests } = storeWith(
      [
        [
          started('r1'),
          { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'boom', parentMessageId: 'm1' },
          { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
          finished('r1', { type: 'success', pendingToolCallIds: ['call_1'] }),
        ] as BaseEvent[],
        [started('r2'), finished('r2')] as BaseEvent[],
      ],
      { tools },
    );
    await store.sendMessage('go');
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1', error: 'no can do' });
  });

  it('shows a state edit at once and sends it with the next run', async () => {
    const { store, requests } = storeWith([[started('r1'), { type: 'STATE_SNAPSHOT', snapshot: { todos: [], draft: 'v1' } }, finished('r1')] as BaseEvent[]], {
      initialState: { todos: [], draft: '' },
    });
    store.setState({ draft: 'v1' });
    expect(store.getSnapshot().state).toEqual({ todos: [], draft: 'v1' });
    await store.sendMessage('saved?');
    expect(requests[0]!.state).toEqual({ todos: [], draft: 'v1' });
    expect(store.getSnapshot().state).toEqual({ todos: [], draft: 'v1' });
  });

  it('reports RUN_ERROR with its code', async () => {
    const { store } = storeWith([[started('r1'), { type: 'RUN_ERROR', code: 'invalid_state', message: 'draft must be a string' }] as BaseEvent[]]);
    await store.sendMessage('x');
    expect(store.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'invalid_state', message: 'draft must be a string' } });
  });

  it('retries a turn that failed on the server, once per click, and not a refused request', async () => {
    const { store, requests } = storeWith([
      [started('r1'), ...text('m1', 'token1'), { type: 'RUN_ERROR', code: 'model_error', message: 'overloaded' }] as BaseEvent[],
      (request) =>
        [
          started(request.runId),
          { type: 'MESSAGES_SNAPSHOT', messages: [request.messages[0]] },
          ...text('m2', 'token1 token2'),
          finished(request.runId),
        ] as BaseEvent[],
      [started('r3'), { type: 'RUN_ERROR', code: 'invalid_state', message: 'draft must be a string' }] as BaseEvent[],
    ]);
    await store.sendMessage('fail once after 2 words');
    expect(store.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'model_error' }, canRetry: true });

    await store.retry();
    expect(requests[1]!.forwardedProps).toEqual({ retry: { retryId: expect.any(String) } });
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null, canRetry: false });
    expect(store.getSnapshot().messages.map((message) => message.id)).toEqual([requests[0]!.messages[0]!.id, 'm2']);
    await store.retry();
    expect(requests).toHaveLength(2);

    await store.sendMessage('x');
    expect(store.getSnapshot()).toMatchObject({ status: 'error', canRetry: false });
  });

  it('asks for the model picked in this tab, and leaves the model to the thread until one is picked', async () => {
    const turn = (request: RunAgentInput) => [started(request.runId), ...text(`m-${request.runId}`, 'ok'), finished(request.runId)] as BaseEvent[];
    const { store, requests } = storeWith([turn, turn]);
    await store.sendMessage('first');
    // The thread's model as rendered is shown, not sent: another tab may have picked since.
    expect(requests[0]!.forwardedProps ?? {}).toEqual({});
    store.setModel('anthropic/claude-sonnet-4-6');
    expect(store.getSnapshot().model).toBe('anthropic/claude-sonnet-4-6');
    await store.sendMessage('second');
    expect(requests[1]!.forwardedProps).toEqual({ model: 'anthropic/claude-sonnet-4-6' });
  });

  it('reports a refused request with the server error message', async () => {
    const { store } = storeWith([{ status: 404, body: { error: { code: 'not_found', message: 'No agent named "taskboard".', what: 'agent' } } }]);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await store.sendMessage('x');
    error.mockRestore();
    expect(store.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'not_found', message: 'No agent named "taskboard".' } });
  });

  it('stops with the cursor of the last event on screen, so the server keeps what the user read', async () => {
    let push!: (event: object, id: string) => void;
    let end!: () => void;
    const body = new ReadableStream<string>({
      start(controller) {
        push = (event, id) => controller.enqueue(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
        end = () => controller.close();
      },
    }).pipeThrough(new TextEncoderStream());
    const stops: unknown[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      if (!url.endsWith('/stop')) return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      stops.push(JSON.parse(String(init.body)));
      return Response.json({ stopped: true });
    };
    const store = new AgentStore({ agent: 'helpdesk', threadId: 'thread-1', createAgent: (config) => new ThreadHttpAgent({ ...config, fetch }) });
    const content = () => store.getSnapshot().messages.find((message) => message.id === 'm1')?.content;

    const sending = store.sendMessage('reply slowly');
    const [start, one, two, done] = text('m1', 'token1', ' token2');
    push(started('r1'), '1');
    push(start!, '2.0');
    push(one!, '2.1');
    await vi.waitFor(() => expect(content()).toBe('token1'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await store.stop();
    expect(stops).toEqual([{ threadId: 'thread-1', runId: 'r1', frontier: '2.1' }]);

    push(two!, '2.2');
    push(done!, '2.3');
    push({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm1', role: 'assistant', content: 'token1' }] }, '3.0');
    push(finished('r1', { type: 'cancelled' }), '3.1');
    end();
    await sending;
    expect(store.getSnapshot()).toMatchObject({ status: 'idle', error: null });
    expect(content()).toBe('token1');
  });

  it("takes the server's message order from a snapshot, as every other tab sees it", async () => {
    // This tab sends "third?" while another tab had already added a turn: the server's snapshot
    // puts that turn before this tab's new message, and this tab must show the same order.
    const earlier = [
      { id: 'u1', role: 'user' as const, content: 'first' },
      { id: 'a1', role: 'assistant' as const, content: 'one' },
    ];
    const { store } = storeWith(
      [
        (request) =>
          [
            started('r2'),
            {
              type: 'MESSAGES_SNAPSHOT',
              messages: [
                ...earlier,
                { id: 'u-other', role: 'user', content: 'from the other tab' },
                { id: 'a-other', role: 'assistant', content: 'two' },
                request.messages.at(-1),
              ],
            },
            finished('r2'),
          ] as BaseEvent[],
      ],
      { initialMessages: earlier },
    );
    await store.sendMessage('third?');
    const mine = store.getSnapshot().messages.at(-1)!.id;
    expect(store.getSnapshot().messages.map((message) => message.id)).toEqual(['u1', 'a1', 'u-other', 'a-other', mine]);
  });
});
