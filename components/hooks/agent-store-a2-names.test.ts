// useAgent's experimental-a2 names over a real store (docs/hitl.md, "The a2 names"):
// state.pendingApprovals / state.pendingInputs / state.active, approve / deny / respond going
// through the same decision batch as resolveInterrupt, status 'failed' when retry() would run
// the turn again, and `{api, id}` naming the thread.
import type { BaseEvent, Interrupt, RunAgentInput } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentStore, agentView, storeAddress, ThreadHttpAgent, type AgentStoreOptions } from './agent-store';

type Reply = BaseEvent[];

function storeWith(replies: Reply[], options: Partial<AgentStoreOptions> = {}) {
  const requests: (RunAgentInput & { parentRunId?: string })[] = [];
  const urls: string[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    urls.push(url);
    requests.push(JSON.parse(String(init.body)) as RunAgentInput);
    const reply = replies.shift();
    if (!reply) throw new Error('No reply left for this request.');
    // A command beside the runs (POST {url}/decide) answers JSON: the reply's one object.
    if (url.endsWith('/decide')) return Response.json(reply[0]);
    return new Response(reply.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), { headers: { 'Content-Type': 'text/event-stream' } });
  };
  const store = new AgentStore({ agent: 'helpdesk', threadId: 'thread-1', ...options, createAgent: (config) => new ThreadHttpAgent({ ...config, fetch }) });
  /** What useAgent hands out now. */
  const view = () => agentView(store.getSnapshot());
  return { store, view, requests, urls };
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'thread-1', runId });
const finished = (runId: string, outcome: unknown = { type: 'success' }) => ({ type: 'RUN_FINISHED', threadId: 'thread-1', runId, outcome });
const call = (toolCallId: string, name: string, args: object) => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName: name, parentMessageId: 'm1' },
  { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify(args) },
  { type: 'TOOL_CALL_END', toolCallId },
];

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

const paused = (runId: string, ...interrupts: Interrupt[]) =>
  [
    started(runId),
    { type: 'STATE_SNAPSHOT', snapshot: { todos: [{ id: 't1', title: 'write post', status: 'pending' }] } },
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

describe("useAgent's a2 names", () => {
  it('approve() submits the approval as a resume of the paused run, and it leaves state.pendingApprovals', async () => {
    const { store, view, requests } = storeWith([paused('r1', close), resumed('r2', 'call_close')]);
    await store.sendMessage('close ticket T-2');
    const { state } = view();
    expect(state.pendingApprovals).toHaveLength(1);
    expect(state.pendingApprovals[0]).toMatchObject({ approvalId: 'int_close', toolCallId: 'call_close', toolName: 'closeTicket' });
    expect(state.pendingInputs).toEqual([]);
    // The planner's state reads as before, and the activity is not part of it.
    expect(state.todos).toEqual([{ id: 't1', title: 'write post', status: 'pending' }]);
    expect(Object.keys(state)).toEqual(['todos']);
    expect(JSON.parse(JSON.stringify(state))).toEqual({ todos: [{ id: 't1', title: 'write post', status: 'pending' }] });

    await store.approve(state.pendingApprovals[0]!);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.resume).toEqual([{ interruptId: 'int_close', status: 'resolved', payload: { approved: true } }]);
    expect(requests[1]!.parentRunId).toBe('r1');
    expect(view().state.pendingApprovals).toEqual([]);
    expect(view().pendingApprovals).toEqual([]);
    expect(view().interrupts).toEqual([]);
  });

  it('each decision of a batch is sent at once: one of two goes on its own (POST …/decide), the last as the resume of the paused run', async () => {
    const other: Interrupt = { ...close, id: 'int_other', toolCallId: 'call_other', metadata: { ...close.metadata, args: { ticketId: 'T-3' } } };
    const { store, view, requests, urls } = storeWith([
      paused('r1', close, other),
      // What POST /api/agents/helpdesk/decide answers for one decision of a batch: no continuation yet.
      [{ interruptId: 'int_close', decision: { status: 'approved' }, continuation: null } as unknown as BaseEvent],
      resumed('r2', 'call_close', 'call_other'),
    ]);
    await store.sendMessage('close tickets T-2 and T-3');
    expect(view().state.pendingApprovals).toHaveLength(2);

    await store.approve('int_close');
    expect(urls.at(-1)).toMatch(/\/api\/agents\/helpdesk\/decide$/);
    expect(requests.at(-1)).toMatchObject({ interruptId: 'int_close', action: 'approve' });
    expect(view().state.pendingApprovals.map((approval) => approval.approvalId)).toEqual(['int_other']);

    await store.deny(view().state.pendingApprovals[0]!, { reason: 'Not this one' });
    expect(requests.at(-1)!.resume).toEqual([{ interruptId: 'int_other', status: 'resolved', payload: { approved: false, reason: 'Not this one' } }]);
    expect(requests.at(-1)!.parentRunId).toBe('r1');
    expect(view().state.pendingApprovals).toEqual([]);
  });

  it('deny() sends the reason the model is told', async () => {
    const { store, view, requests } = storeWith([paused('r1', close), resumed('r2', 'call_close')]);
    await store.sendMessage('close ticket T-2');
    await store.deny(view().state.pendingApprovals[0]!, { reason: 'Denied by the user' });
    expect(requests[1]!.resume).toEqual([{ interruptId: 'int_close', status: 'resolved', payload: { approved: false, reason: 'Denied by the user' } }]);
    expect(view().state.pendingApprovals).toEqual([]);
  });

  it('respond() answers a question from state.pendingInputs with the value itself', async () => {
    const { store, view, requests } = storeWith([paused('r1', question), resumed('r2', 'call_ask')]);
    await store.sendMessage('plan a launch');
    expect(view().state.pendingApprovals).toEqual([]);
    const [input] = view().state.pendingInputs;
    expect(input).toMatchObject({ inputId: 'int_ask', message: 'What should the launch be called?' });

    // An answer the question's schema refuses is staged with its problem, and nothing is sent.
    await store.respond(input!, { answer: '' });
    expect(requests).toHaveLength(1);
    expect(view().pendingInputs[0]!.resolution?.problems).not.toEqual([]);

    await store.respond('int_ask', { answer: 'Aurora' });
    expect(requests[1]!.resume).toEqual([{ interruptId: 'int_ask', status: 'resolved', payload: { answer: 'Aurora' } }]);
    expect(view().state.pendingInputs).toEqual([]);
  });

  it("status is 'failed' when the last run failed and retry() runs it again; a refused request stays 'error'", async () => {
    const { store, view, requests } = storeWith([
      [started('r1'), { type: 'RUN_ERROR', code: 'model_error', message: 'overloaded' }] as BaseEvent[],
      [started('r2'), finished('r2')] as BaseEvent[],
      [started('r3'), { type: 'RUN_ERROR', code: 'invalid_state', message: 'draft must be a string' }] as BaseEvent[],
    ]);
    await store.sendMessage('fail');
    expect(view()).toMatchObject({ status: 'failed', error: { code: 'model_error' } });

    await store.retry();
    expect(requests[1]!.forwardedProps).toEqual({ retry: { retryId: expect.any(String) } });
    expect(view().status).toBe('idle');

    await store.sendMessage('x');
    expect(view()).toMatchObject({ status: 'error', error: { code: 'invalid_state' } });
  });

  it('state.active is true while a turn runs, and false once it ended', async () => {
    const { store, view } = storeWith([[started('r1'), finished('r1')] as BaseEvent[]]);
    const seen: boolean[] = [];
    store.subscribe(() => seen.push(view().state.active));
    expect(view().state.active).toBe(false);
    await store.sendMessage('hi');
    expect(seen).toContain(true);
    expect(view().state.active).toBe(false);
  });

  it('{api, id} names the thread: the agent of /api/agents/{name}, the route as it is, the session id as the thread', async () => {
    expect(storeAddress({ api: '/api/agents/helpdesk', id: 's-1' })).toEqual({ agent: 'helpdesk', threadId: 's-1', url: '/api/agents/helpdesk' });
    expect(storeAddress({ api: '/api/tools', id: 's-2' })).toEqual({ agent: 'tools', threadId: 's-2', url: '/api/tools' });
    expect(storeAddress({ agent: 'taskboard', threadId: 't-1' })).toEqual({ agent: 'taskboard', threadId: 't-1', url: undefined });

    const { store, urls, requests } = storeWith([[started('r1'), finished('r1')] as BaseEvent[]], storeAddress({ api: '/api/agents/taskboard', id: 's-3' }));
    await store.sendMessage('hi');
    expect(urls).toEqual(['/api/agents/taskboard']);
    expect(requests[0]!.threadId).toBe('s-3');
  });
});
