// Steering a running turn: the guidance goes in at the next step boundary of the same run —
// here, after the model answered, so the turn goes on with one more step — and a steer for a
// turn that is not running is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { findAgent } from '../../agents/index';
import { createMemoryStore } from '../../store/memory-store';
import type { RunPart } from '../stream/parts';
import { reduceAll } from '../session/reduce';
import { userMessage } from './server-session';
import { startRun } from './turns';
import { requestSteer } from './steer';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

describe('steer', () => {
  it('adds guidance to the running turn at its next step boundary: the same run goes on with it', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const run = await startRun({
      agent: support,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('slowly reply with 10 tokens')],
    });
    const parts: RunPart[] = [];
    let streaming!: () => void;
    const firstToken = new Promise<void>((resolve) => (streaming = resolve));
    const reading = (async () => {
      for await (const part of run.parts) {
        parts.push(part);
        if (part.type === 'text-delta') streaming();
      }
    })();
    // Steered while the model streams its answer: the guidance comes after that step.
    await firstToken;
    await requestSteer(store, findAgent, { sessionId: 's1', ownerId: 'o1', message: userMessage('also say hello', { id: 'steer-1' }) });
    // A resend of the same guidance adds nothing.
    await requestSteer(store, findAgent, { sessionId: 's1', ownerId: 'o1', runId: run.runId, message: userMessage('also say hello', { id: 'steer-1' }) });
    await reading;
    await run.done;

    const events = await store.readEvents('s1');
    expect(events.filter(({ event }) => event.type === 'run_started')).toHaveLength(1);
    const view = reduceAll(events, support.initialState);
    expect(view.status).toBe('idle');
    expect(view.messages.map((message) => [message.role, message.role === 'assistant' ? message.content.split(' ')[0] : message.content])).toEqual([
      ['user', 'slowly reply with 10 tokens'],
      ['assistant', 'token1'],
      ['user', 'also say hello'],
      ['assistant', expect.any(String)],
    ]);
    expect(view.messages.at(-1)!.content).toContain('also say hello');
    // Clients see the guidance arrive mid-run.
    const snapshot = parts.filter((part) => part.type === 'messages-snapshot').at(-1) as { messages: { id: string }[] } | undefined;
    expect(snapshot?.messages.map((message) => message.id)).toContain('steer-1');
  });

  it('is refused when no run is in progress, or when it names a run that is not', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const run = await startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('hello')] });
    await run.done;
    await expect(requestSteer(store, findAgent, { sessionId: 's1', ownerId: 'o1', message: userMessage('too late') })).rejects.toMatchObject({
      code: 'not_running',
      status: 409,
    });
    const next = await startRun({
      agent: support,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('slowly reply with 10 tokens')],
    });
    await expect(
      requestSteer(store, findAgent, { sessionId: 's1', ownerId: 'o1', runId: run.runId, message: userMessage('for the old turn') }),
    ).rejects.toMatchObject({ code: 'other_run' });
    await expect(requestSteer(store, findAgent, { sessionId: 's1', ownerId: 'intruder', message: userMessage('x') })).rejects.toMatchObject({
      code: 'not_found',
    });
    await next.done;
  });
});

describe('steer across a pause', () => {
  it('guidance the run accepted just before it paused for a decision goes into the continuation', async () => {
    const support = findAgent('helpdesk')!;
    const store = createMemoryStore();
    const paused = await startRun({ agent: support, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('close ticket T-7')] });
    await paused.done;
    // As if it arrived while the run was still streaming the call that then paused.
    await store.addSteer({ sessionId: 's1', runId: paused.runId, message: userMessage('and tell me when it is done', { id: 'steer-late' }) });
    const view = reduceAll(await store.readEvents('s1'), support.initialState);
    const [pending] = Object.values(view.interrupts).map((state) => state.record);
    const resumed = await startRun({
      agent: support,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [],
      decisions: [{ interruptId: pending!.id, status: 'resolved', payload: { approved: true } }],
    });
    await resumed.done;
    const after = reduceAll(await store.readEvents('s1'), support.initialState);
    // The tool's result first (the call must be answered), then the guidance, then the answer to it.
    expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(after.messages[3]).toMatchObject({ id: 'steer-late', content: 'and tell me when it is done' });
    expect(after.status).toBe('idle');
  });
});
