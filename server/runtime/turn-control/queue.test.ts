// The message queue: a message sent while a turn runs or waits on a decision is kept and goes
// out in order when the session falls idle, as a turn of its own; until then it can be edited,
// moved, removed or sent now (which ends the running turn at its next step boundary, or
// cancels the decision the turn waits on).
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findAgent } from '../../agents/index';
import { defineDeepAgent, type DeepAgent } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { changeQueue, startRun } from './turns';
import { readViewAndQueue } from './queue';
import { sweep } from '../recovery/recovery';
import { reduceAll, type SessionView } from '../session/reduce';
import { userMessage } from './server-session';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** A tool that holds its turn until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  return { open, opened, reached, entered };
}

const held = { current: gate() };
const waiter = defineDeepAgent({
  name: 'waiter',
  model: createScriptedModel(),
  instructions: 'x',
  tools: {
    hold: tool({
      inputSchema: z.object({}),
      execute: async () => {
        held.current.entered();
        await held.current.opened;
        return { held: true };
      },
    }),
  },
});
const agents = (name: string): DeepAgent | undefined => (name === 'waiter' ? waiter : findAgent(name));

async function view(store: EventStore, sessionId: string, agent: DeepAgent): Promise<SessionView> {
  return reduceAll(await store.readEvents(sessionId), agent.initialState);
}

/** Resolves once the session has no queue and is not running. */
async function settled(store: EventStore, sessionId: string, agent: DeepAgent): Promise<SessionView> {
  for (let i = 0; i < 500; i++) {
    const current = await view(store, sessionId, agent);
    if (current.status !== 'running' && (await store.listQueue(sessionId)).length === 0) return current;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the session did not settle');
}

const userTexts = (current: SessionView) => current.messages.filter((message) => message.role === 'user').map((message) => message.content);

describe('the message queue', () => {
  it('messages sent while a turn runs wait, then go out in order, one turn each — as edited and moved', async () => {
    held.current = gate();
    const store = createMemoryStore();
    const first = await startRun({ agent: waiter, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('call hold {}')] });
    await held.current.reached;
    const request = { sessionId: 's1', ownerId: 'o1', source: 'agui' as const };
    const queuedRun = await startRun({
      agent: waiter,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('say 2 words', { id: 'q-a' })],
      queue: 'running-or-waiting',
    });
    expect(queuedRun.queued?.map((item) => item.message.id)).toEqual(['q-a']);
    await changeQueue(store, agents, request, { op: 'add', message: userMessage('say 3 words', { id: 'q-b' }) });
    await changeQueue(store, agents, request, { op: 'add', message: userMessage('say 4 words', { id: 'q-c' }) });
    await changeQueue(store, agents, request, { op: 'edit', messageId: 'q-b', content: 'say 5 words' });
    const moved = await changeQueue(store, agents, request, { op: 'move', messageId: 'q-c', index: 0 });
    expect(moved.map((item) => item.message.content)).toEqual(['say 4 words', 'say 2 words', 'say 5 words']);
    // Nothing of the queue is in the thread yet.
    expect(userTexts(await view(store, 's1', waiter))).toEqual(['call hold {}']);

    // The queued request's own stream is the run its message becomes.
    const parts: string[] = [];
    const reading = (async () => {
      for await (const part of queuedRun.parts) parts.push(part.type === 'text-delta' ? part.delta.trim() : `[${part.type}]`);
    })();
    held.current.open();
    await first.done;
    const after = await settled(store, 's1', waiter);
    await reading;
    expect(userTexts(after)).toEqual(['call hold {}', 'say 4 words', 'say 2 words', 'say 5 words']);
    const runs = (await store.readEvents('s1')).filter(({ event }) => event.type === 'run_started');
    expect(runs).toHaveLength(4);
    expect(after.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'token1 token2 token3 token4 token5' });
    expect(parts[0]).toBe('[run-started]');
    expect(parts.filter((part) => part.startsWith('token'))).toEqual(['token1', 'token2']);
    expect(parts.at(-1)).toBe('[run-finished]');
  });

  it('a message queued while an approval is pending goes out after the approval and its continuation', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const paused = await startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('close ticket T-7')] });
    await paused.done;
    const pending = Object.values((await view(store, 's1', support)).interrupts).map((state) => state.record);
    const queued = await startRun({
      agent: support,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('say 3 words', { id: 'later' })],
      queue: 'running-or-waiting',
    });
    expect(queued.queued).toHaveLength(1);
    // The chat wires keep their 409 while a decision is pending.
    await expect(
      startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'openai', messages: [userMessage('hello?')], queue: 'running' }),
    ).rejects.toMatchObject({ code: 'interrupts_pending', status: 409 });

    const resumed = await startRun({
      agent: support,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [],
      decisions: [{ interruptId: pending[0]!.id, status: 'resolved', payload: { approved: true } }],
    });
    await resumed.done;
    const after = await settled(store, 's1', support);
    expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(after.messages[4]).toMatchObject({ id: 'later', content: 'say 3 words' });
    expect(after.messages[5]).toMatchObject({ content: 'token1 token2 token3' });
    expect(after.interrupts[pending[0]!.id]?.decision?.status).toBe('approved');
  });

  it('send-now ends the running turn at its next step boundary and goes out first', async () => {
    held.current = gate();
    const store = createMemoryStore();
    const first = await startRun({ agent: waiter, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('call hold {}')] });
    await held.current.reached;
    const request = { sessionId: 's1', ownerId: 'o1', source: 'agui' as const };
    await changeQueue(store, agents, request, { op: 'add', message: userMessage('say 2 words', { id: 'q-a' }) });
    await changeQueue(store, agents, request, { op: 'add', message: userMessage('say 3 words', { id: 'q-b' }) });
    const now = await changeQueue(store, agents, request, { op: 'sendNow', messageId: 'q-b' });
    expect(now.map((item) => [item.message.id, item.sendNow])).toEqual([
      ['q-b', true],
      ['q-a', false],
    ]);
    held.current.open();
    await first.done;
    const after = await settled(store, 's1', waiter);
    // The tool finished (a step boundary is after a step's tools), the model was not called again.
    expect(after.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'call hold {}'],
      ['assistant', ''],
      ['tool', expect.stringContaining('held')],
      ['user', 'say 3 words'],
      ['assistant', 'token1 token2 token3'],
      ['user', 'say 2 words'],
      ['assistant', 'token1 token2'],
    ]);
    const finished = (await store.readEvents('s1')).map(({ event }) => event).find((event) => event.type === 'run_finished');
    expect(finished).toMatchObject({ runId: first.runId, outcome: { type: 'cancelled' }, stop: { frontier: null, by: { source: 'queue' } } });
  });

  it('send-now while a decision is pending cancels it, and the message goes out', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    await (
      await startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('close ticket T-7')] })
    ).done;
    const request = { sessionId: 's1', ownerId: 'o1', source: 'agui' as const };
    await changeQueue(store, findAgent, request, { op: 'add', message: userMessage('say 2 words', { id: 'q-a' }) });
    expect((await view(store, 's1', support)).status).toBe('interrupted');
    await changeQueue(store, findAgent, request, { op: 'sendNow', messageId: 'q-a' });
    const after = await settled(store, 's1', support);
    const decision = Object.values(after.interrupts)[0]?.decision;
    expect(decision).toMatchObject({ status: 'cancelled', by: { source: 'queue', ownerId: 'o1' } });
    expect(after.messages.slice(-2).map((message) => message.content)).toEqual(['say 2 words', 'token1 token2']);
  });

  it('a turn the queue starts is handed to keepAlive, and settles when that turn has written its end (a host that freezes after the answer waits for it)', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const kept: Promise<unknown>[] = [];
    const request = { sessionId: 's1', ownerId: 'o1', source: 'agui' as const, keepAlive: (work: Promise<unknown>) => void kept.push(work) };
    await (
      await startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('close ticket T-7')] })
    ).done;
    // Waiting on a decision: an add only queues; send-now starts the cancelling turn.
    await changeQueue(store, findAgent, request, { op: 'add', message: userMessage('say 2 words', { id: 'q-a' }) });
    expect(kept).toHaveLength(0);
    await changeQueue(store, findAgent, request, { op: 'sendNow', messageId: 'q-a' });
    expect(kept).toHaveLength(1);
    await Promise.all(kept);
    // The cancelling turn's end sent the queued message, and its turn is over too.
    const after = await view(store, 's1', support);
    expect(after.status).toBe('idle');
    expect(after.messages.slice(-2).map((message) => message.content)).toEqual(['say 2 words', 'token1 token2']);
    // An add to an idle session goes out at once: its turn is handed over as well.
    await changeQueue(store, findAgent, request, { op: 'add', message: userMessage('say 3 words', { id: 'q-b' }) });
    expect(kept).toHaveLength(2);
    await kept[1];
    expect((await view(store, 's1', support)).messages.at(-1)?.content).toBe('token1 token2 token3');
  });

  it('a removed message never goes out, and its waiting request is told; a failed turn holds the queue', async () => {
    held.current = gate();
    const store = createMemoryStore();
    const first = await startRun({ agent: waiter, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('call hold {}')] });
    await held.current.reached;
    const request = { sessionId: 's1', ownerId: 'o1', source: 'agui' as const };
    const queuedRun = await startRun({
      agent: waiter,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('say 2 words', { id: 'gone' })],
      queue: 'running-or-waiting',
    });
    const waiting = (async () => {
      const parts = [];
      for await (const part of queuedRun.parts) parts.push(part);
      return parts;
    })();
    await changeQueue(store, agents, request, { op: 'remove', messageId: 'gone' });
    // The waiting request ends as a run that never started, told why (not a broken stream).
    expect(await waiting).toEqual([
      { type: 'run-started', threadId: 's1', runId: queuedRun.runId },
      expect.objectContaining({ type: 'run-error', code: 'not_queued', details: { messageId: 'gone' } }),
    ]);
    await expect(changeQueue(store, agents, request, { op: 'edit', messageId: 'gone', content: 'x' })).rejects.toMatchObject({
      code: 'not_queued',
      status: 404,
    });
    await expect(changeQueue(store, agents, request, { op: 'add', message: { id: 'x', role: 'assistant', content: 'hi' } })).rejects.toMatchObject({
      code: 'invalid_message',
    });
    await expect(changeQueue(store, agents, { ...request, ownerId: 'intruder' }, { op: 'remove', messageId: 'gone' })).rejects.toMatchObject({
      code: 'not_found',
    });
    held.current.open();
    await first.done;
    expect(userTexts(await settled(store, 's1', waiter))).toEqual(['call hold {}']);

    // A failed turn: what is queued behind it waits for a retry.
    await (
      await startRun({ agent: waiter, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('fail')] })
    ).done;
    await changeQueue(store, agents, request, { op: 'add', message: userMessage('say 2 words', { id: 'after-failure' }) });
    expect((await store.listQueue('s1')).map((item) => item.message.id)).toEqual(['after-failure']);
    expect((await view(store, 's1', waiter)).status).toBe('error');
    await changeQueue(store, agents, request, { op: 'sendNow', messageId: 'after-failure' });
    expect(userTexts(await settled(store, 's1', waiter)).at(-1)).toBe('say 2 words');
  });

  it('a queue left on an idle session by a server that died after the turn goes out on the next sweep, once', async () => {
    const store = createMemoryStore();
    await (
      await startRun({ agent: waiter, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('say 1 word')] })
    ).done;
    // As if queued while the turn ran, and the server died before sending it.
    await store.enqueue({ sessionId: 's1', entries: [{ message: userMessage('say 2 words', { id: 'left' }), runId: 'run-left' }], source: 'agui' });
    expect(await store.listRecoverable(new Date())).toEqual(['s1']);
    const swept = await sweep(store, agents);
    expect(swept).toMatchObject({ sessions: 1, started: 1 });
    await swept.done;
    const after = await settled(store, 's1', waiter);
    expect(userTexts(after)).toEqual(['say 1 word', 'say 2 words']);
    expect(
      (await store.readEvents('s1'))
        .filter(({ event }) => event.type === 'run_started')
        .map(({ event }) => (event as { runId: string }).runId)
        .at(-1),
    ).toBe('run-left');
    expect(await store.listRecoverable(new Date())).toEqual([]);
    expect((await sweep(store, agents)).started).toBe(0);
  });
});

describe('readViewAndQueue', () => {
  it('shows a message being sent once: in the log, not also in the queue, in the instant between the two writes', async () => {
    const store = createMemoryStore();
    const support = findAgent('helpdesk')!;
    const first = await startRun({ agent: support, store, sessionId: 's-read', ownerId: 'o', source: 'agui', messages: [userMessage('say 1 word')] });
    await first.done;
    const message = userMessage('say 2 words');
    const [queued] = await store.enqueue({ sessionId: 's-read', entries: [{ message, runId: 'r-queued' }], source: 'agui' });
    expect((await readViewAndQueue(store, 's-read', support.initialState)).queue.map((item) => item.message.id)).toEqual([message.id]);
    // The send's first write: the message is in the log, still in the queue until its second.
    const sending = await startRun({ agent: support, store, sessionId: 's-read', ownerId: 'o', source: 'agui', runId: queued!.runId, messages: [message] });
    expect(await store.listQueue('s-read')).toHaveLength(1);
    const { view: seen, queue } = await readViewAndQueue(store, 's-read', support.initialState);
    expect(queue).toEqual([]);
    expect(seen.messages.filter((entry) => entry.id === message.id)).toHaveLength(1);
    await sending.done;
  });
});
