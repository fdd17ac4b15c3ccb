// Tool timeouts and stops (docs/hitl.md, Timeouts): real AI SDK tools run through executeTool.
import { tool, type Tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { handlerContext } from './handler-context';
import type { JsonObject } from '../../store/messages';
import { stopGraceMs, toolTimeoutMs } from './tool-limits';
import { executeTool } from './tool-set';
import { ToolError } from './tool-error';

const GRACE_MS = 100;
const ENV = ['STACKBONE_STOP_GRACE_MS', 'STACKBONE_TOOL_TIMEOUT_MS'] as const;
let saved: Partial<Record<(typeof ENV)[number], string>> = {};

beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  process.env.STACKBONE_STOP_GRACE_MS = String(GRACE_MS);
  delete process.env.STACKBONE_TOOL_TIMEOUT_MS;
});

afterEach(() => {
  vi.useRealTimers();
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function run(definition: Tool, options: { signal?: AbortSignal; timeoutMs?: number; state?: JsonObject } = {}) {
  return executeTool({
    definition,
    call: { id: 'call_1', name: 'work', input: {} },
    context: {
      attempt: 1,
      session: { id: 's1', agent: 'a', ownerId: 'o1', durable: true, schedule: () => Promise.reject(new Error('no timers here')) },
      signal: options.signal ?? new AbortController().signal,
    },
    state: options.state ?? { count: 0 },
    history: [],
    timeoutMs: options.timeoutMs,
  });
}

describe('executeTool limits', () => {
  it('a tool that never settles times out after timeoutMs + grace, its signal aborted with reason "timeout"', async () => {
    let signal: AbortSignal | undefined;
    let sdkSignal: AbortSignal | undefined;
    const hang = tool({
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) => {
        signal = handlerContext().signal;
        sdkSignal = abortSignal;
        return new Promise<string>(() => {});
      },
    });
    const started = Date.now();
    const outcome = await run(hang, { timeoutMs: 50 });
    const elapsed = Date.now() - started;
    expect(outcome).toEqual({
      ok: false,
      error: 'Tool "work" timed out after 0.05s.',
      content: 'Tool "work" timed out after 0.05s.',
      state: { count: 0 },
      abort: 'timeout',
    });
    // It waited out the grace period too (timers may fire a millisecond early).
    expect(elapsed).toBeGreaterThanOrEqual(50 + GRACE_MS - 5);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('timeout');
    expect(sdkSignal).toBe(signal);
  });

  it('a stop of the run aborts the call with reason "stopped"; a tool that honours it ends at once', async () => {
    process.env.STACKBONE_STOP_GRACE_MS = '5000';
    let signal: AbortSignal | undefined;
    const polite = tool({
      inputSchema: z.object({}),
      execute: () => {
        signal = handlerContext().signal;
        return new Promise<string>((_, reject) => signal!.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const runController = new AbortController();
    setTimeout(() => runController.abort(), 20);
    const started = Date.now();
    const outcome = await run(polite, { signal: runController.signal, timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ ok: false, error: 'The run was stopped before the tool finished.', abort: 'stopped' });
    expect(signal?.reason).toBe('stopped');
    // It rejected as soon as it was told: no waiting out the 5 s grace.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a tool that ignores a timeout but returns within the grace keeps its result and state change', async () => {
    let signal: AbortSignal | undefined;
    const stubborn = tool({
      inputSchema: z.object({}),
      execute: async () => {
        signal = handlerContext().signal;
        await sleep(60);
        handlerContext().state.count = 1;
        return { done: true };
      },
    });
    const outcome = await run(stubborn, { timeoutMs: 20 });
    expect(signal?.reason).toBe('timeout');
    expect(outcome).toEqual({ ok: true, output: { done: true }, content: '{"done":true}', state: { count: 1 } });
  });

  it('a tool that finishes after the run was stopped, within the grace, keeps its result', async () => {
    const runController = new AbortController();
    const stubborn = tool({
      inputSchema: z.object({}),
      execute: async () => {
        runController.abort();
        await sleep(30);
        handlerContext().state.count = 1;
        return 'refunded';
      },
    });
    const outcome = await run(stubborn, { signal: runController.signal });
    expect(outcome).toEqual({ ok: true, output: 'refunded', content: 'refunded', state: { count: 1 } });
  });

  it('a result that arrives after the call was abandoned is ignored, its rejection handled', async () => {
    let draft: JsonObject | undefined;
    const late = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        draft = handlerContext().state;
        await sleep(20 + GRACE_MS + 50);
        draft.count = 99;
        throw new Error('too late');
      },
    });
    const outcome = await run(late, { timeoutMs: 20 });
    expect(outcome).toMatchObject({ ok: false, abort: 'timeout', state: { count: 0 } });
    // Let the late rejection happen: Vitest fails the run on an unhandled rejection.
    await sleep(100);
    expect(draft?.count).toBe(99);
    expect(outcome.state).toEqual({ count: 0 });
  });

  it('does not start a tool once the run is stopped', async () => {
    const execute = vi.fn(async () => 'ran');
    const stopped = new AbortController();
    stopped.abort();
    const outcome = await run(tool({ inputSchema: z.object({}), execute }), { signal: stopped.signal, timeoutMs: 1000 });
    expect(outcome).toMatchObject({ ok: false, error: 'Not run: the run was stopped before this call started.', abort: 'stopped' });
    expect(execute).not.toHaveBeenCalled();
  });

  it('leaves no timer behind when the tool finishes in time', async () => {
    vi.useFakeTimers();
    const quick = tool({ inputSchema: z.object({}), execute: async () => 'ok' });
    const outcome = await run(quick, { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ ok: true, output: 'ok' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a tool that fails by itself is an ordinary error, without abort; its ToolError's message is kept, any other exception's is not", async () => {
    const refusing = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new ToolError('out of stock');
      },
    });
    expect(await run(refusing, { timeoutMs: 1000 })).toEqual({ ok: false, error: 'out of stock', content: 'out of stock', state: { count: 0 } });
    const broken = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432');
      },
    });
    const outcome = await run(broken, { timeoutMs: 1000 });
    expect(outcome).toMatchObject({
      ok: false,
      content: expect.stringMatching(/^Tool "work" failed \(tool_error, ref [0-9a-f]{8}; the details are in the server's log\)\.$/),
      state: { count: 0 },
    });
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
    expect('abort' in outcome).toBe(false);
  });
});

describe('toolTimeoutMs', () => {
  const noop = tool({ inputSchema: z.object({}), execute: async () => null });

  it('per tool beats the agent default, which beats the environment, which beats 2 minutes', () => {
    process.env.STACKBONE_TOOL_TIMEOUT_MS = '45000';
    const agent = defineDeepAgent({
      name: 'timed',
      model: 'openai/gpt-4o-mini',
      instructions: 'x',
      tools: { slow: noop, fast: noop },
      toolTimeout: '30s',
      toolTimeouts: { slow: '2m' },
    });
    expect(toolTimeoutMs(agent, 'slow')).toBe(120_000);
    expect(toolTimeoutMs(agent, 'fast')).toBe(30_000);
    // Built-in tools take the agent's default.
    expect(toolTimeoutMs(agent, 'write_todos')).toBe(30_000);

    const plain = defineDeepAgent({ name: 'plain', model: 'openai/gpt-4o-mini', instructions: 'x', tools: { slow: noop }, toolTimeouts: { slow: 500 } });
    expect(toolTimeoutMs(plain, 'slow')).toBe(500);
    expect(toolTimeoutMs(plain, 'other')).toBe(45_000);
    delete process.env.STACKBONE_TOOL_TIMEOUT_MS;
    expect(toolTimeoutMs(plain, 'other')).toBe(120_000);
  });

  it('the grace period comes from STACKBONE_STOP_GRACE_MS, default 2 s', () => {
    expect(stopGraceMs()).toBe(GRACE_MS);
    delete process.env.STACKBONE_STOP_GRACE_MS;
    expect(stopGraceMs()).toBe(2_000);
  });

  it('defineDeepAgent refuses a timeout for a tool the agent does not have, or an unreadable one', () => {
    expect(() =>
      defineDeepAgent({ name: 'bad', model: 'openai/gpt-4o-mini', instructions: 'x', tools: { slow: noop }, toolTimeouts: { nope: '1s' } as never }),
    ).toThrow('Agent "bad": toolTimeouts names "nope", which is not one of its tools.');
    expect(() =>
      defineDeepAgent({ name: 'bad', model: 'openai/gpt-4o-mini', instructions: 'x', tools: { slow: noop }, toolTimeouts: { slow: 'soon' } }),
    ).toThrow('Agent "bad": Invalid toolTimeouts.slow "soon"');
    expect(() => defineDeepAgent({ name: 'bad', model: 'openai/gpt-4o-mini', instructions: 'x', toolTimeout: -1 })).toThrow(
      'Agent "bad": Invalid toolTimeout -1',
    );
  });
});
