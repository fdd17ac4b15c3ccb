// The recovery sweep starts recovered runs a few at a time and does not wait for them
// (docs/hitl.md, Timeouts): one slow recovered run must not hold up the others.
import { tool } from 'ai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { handlerContext } from '../tools/handler-context';
import { reduceAll } from '../session/reduce';
import { recoverSession, sweep } from './recovery';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

let savedConcurrency: string | undefined;
beforeEach(() => {
  savedConcurrency = process.env.STACKBONE_RECOVERY_CONCURRENCY;
});
afterEach(() => {
  if (savedConcurrency === undefined) delete process.env.STACKBONE_RECOVERY_CONCURRENCY;
  else process.env.STACKBONE_RECOVERY_CONCURRENCY = savedConcurrency;
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** An agent whose one tool blocks until the test releases it, noting each session it entered. */
function slowAgent() {
  const release = deferred();
  const entered: string[] = [];
  const agent = defineDeepAgent({
    name: 'slow',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: {
      crunch: tool({
        inputSchema: z.object({}),
        execute: async () => {
          entered.push(handlerContext().session.id);
          await release.promise;
          return { crunched: true };
        },
      }),
    },
  });
  return { agent, entered, release: release.resolve };
}

/** A session as a crashed server leaves it: the tool started, no result, the lease run out. */
async function abandon(store: EventStore, sessionId: string) {
  await store.ensureSession({ id: sessionId, ownerId: 'o1', agent: 'slow' });
  await store.append(
    sessionId,
    0,
    [
      { type: 'run_started', runId: `run-${sessionId}`, source: 'agui' },
      { type: 'message_added', message: { id: `m-${sessionId}`, role: 'user', content: 'call crunch {}' } },
      {
        type: 'assistant_step',
        message: { id: `a-${sessionId}`, role: 'assistant', content: '', toolCalls: [{ id: `call-${sessionId}`, name: 'crunch', input: {} }] },
        finishReason: 'tool-calls',
      },
      { type: 'tool_started', toolCallId: `call-${sessionId}`, toolName: 'crunch', attempt: 1 },
    ],
    { status: 'running', leaseUntil: new Date(Date.now() - 1) },
  );
}

async function until(check: () => boolean, what: string, ms = 2000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Fails instead of hanging when `promise` does not settle in time. */
function within<T>(promise: Promise<T>, what: string, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function statusOf(store: EventStore, sessionId: string) {
  return reduceAll(await store.readEvents(sessionId), {}).status;
}

describe('recovery sweep', () => {
  it('returns once the recovered run is started, before it finishes', async () => {
    const store = createMemoryStore();
    const { agent, entered, release } = slowAgent();
    await abandon(store, 's1');
    const result = await within(
      sweep(store, () => agent),
      'sweep',
    );
    expect(result).toMatchObject({ sessions: 1, started: 1 });
    await until(() => entered.length === 1, 'the tool to run again');
    expect(await statusOf(store, 's1')).toBe('running');

    let finished = false;
    void result.done.then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(false);
    release();
    await within(result.done, 'the recovered run');
    expect(await statusOf(store, 's1')).toBe('idle');
  });

  it('with concurrency 1, starts both abandoned sessions while the first is still running', async () => {
    process.env.STACKBONE_RECOVERY_CONCURRENCY = '1';
    const store = createMemoryStore();
    const { agent, entered, release } = slowAgent();
    await abandon(store, 's1');
    await abandon(store, 's2');
    const result = await within(
      sweep(store, () => agent),
      'sweep',
    );
    expect(result).toMatchObject({ sessions: 2, started: 2 });
    await until(() => entered.length === 2, 'both tools to run again');
    expect(entered.sort()).toEqual(['s1', 's2']);
    release();
    await within(result.done, 'the recovered runs');
    expect([await statusOf(store, 's1'), await statusOf(store, 's2')]).toEqual(['idle', 'idle']);
  });

  it('starts no more than STACKBONE_RECOVERY_CONCURRENCY sessions at once', async () => {
    process.env.STACKBONE_RECOVERY_CONCURRENCY = '2';
    const inner = createMemoryStore();
    const { agent, release } = slowAgent();
    for (const id of ['s1', 's2', 's3', 's4', 's5']) await abandon(inner, id);
    // Hold every recovery's taking of its session (the run_started append) until the test lets go.
    const gate = deferred();
    let taking = 0;
    let most = 0;
    const store: EventStore = {
      ...inner,
      append: async (sessionId, expectedSeq, events, options) => {
        if (!events.some((event) => event.type === 'run_started')) return inner.append(sessionId, expectedSeq, events, options);
        most = Math.max(most, ++taking);
        await gate.promise;
        taking--;
        return inner.append(sessionId, expectedSeq, events, options);
      },
    };
    let swept = false;
    const pending = sweep(store, () => agent).then((result) => {
      swept = true;
      return result;
    });
    await until(() => taking === 2, 'two sessions being taken');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(taking).toBe(2);
    expect(swept).toBe(false);
    gate.resolve();
    const result = await within(pending, 'sweep');
    expect(result).toMatchObject({ sessions: 5, started: 5 });
    expect(most).toBe(2);
    release();
    await within(result.done, 'the recovered runs');
  });

  it('recoverSession resolves to the started run without waiting for it', async () => {
    const store = createMemoryStore();
    const { agent, entered, release } = slowAgent();
    await abandon(store, 's1');
    const run = await within(
      recoverSession(store, () => agent, 's1'),
      'recoverSession',
    );
    expect(run).toMatchObject({ runId: expect.any(String), done: expect.any(Promise) });
    await until(() => entered.length === 1, 'the tool to run again');
    release();
    await within(run!.done, 'the recovered run');
    // Nothing left to recover: nothing is started.
    expect(await recoverSession(store, () => agent, 's1')).toBeUndefined();
  });

  it('a run that looked abandoned but finishes before recovery starts is left alone: no second run', async () => {
    const memory = createMemoryStore();
    const { agent } = slowAgent();
    await abandon(memory, 's1');
    let reads = 0;
    // The starved run's server comes back right after recovery read the log, and finishes the turn.
    const store: EventStore = {
      ...memory,
      readEvents: async (id, after) => {
        const events = await memory.readEvents(id, after);
        if (++reads === 1) {
          await memory.append(
            's1',
            4,
            [
              {
                type: 'tool_result',
                message: { id: 't-s1', role: 'tool', toolCallId: 'call-s1', toolName: 'crunch', content: '{"crunched":true}' },
                output: { crunched: true },
              },
              { type: 'run_finished', runId: 'run-s1', outcome: { type: 'success' } },
            ],
            { status: 'idle', leaseUntil: null },
          );
        }
        return events;
      },
    };
    expect(
      await within(
        recoverSession(store, () => agent, 's1'),
        'recoverSession',
      ),
    ).toBeUndefined();
    const types = (await memory.readEvents('s1')).map((stored) => stored.event.type);
    expect(types.filter((type) => type === 'run_started')).toHaveLength(1);
    expect(types.at(-1)).toBe('run_finished');
  });

  it('a session whose agent is gone is closed as failed, with the reason, and not listed again', async () => {
    const store = createMemoryStore();
    await abandon(store, 's1');
    expect(await store.listRecoverable(new Date())).toEqual(['s1']);
    const result = await within(
      sweep(store, () => undefined),
      'sweep',
    );
    expect(result).toMatchObject({ sessions: 1, started: 0 });
    const view = reduceAll(await store.readEvents('s1'), {});
    expect(view).toMatchObject({ status: 'error', lastRun: { error: { code: 'agent_removed', message: 'Agent "slow" is no longer on this server.' } } });
    expect(await store.listRecoverable(new Date())).toEqual([]);
  });
});
