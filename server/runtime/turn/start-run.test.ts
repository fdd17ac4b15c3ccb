import { tool, wrapLanguageModel } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { helpdeskPhrases } from '../../../tests/fixtures/agents/helpdesk-phrases';
import { defineDeepAgent, type DeepAgent } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryDatabase } from '../../store/memory-database';
import { createMemoryStore } from '../../store/memory-store';
import { createPrismaStore } from '../../store/prisma-store';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../../../tests/support/database';
import { reusingCallIds } from '../../../tests/support/models';
import type { EventStore } from '../../store/types';
import { handlerContext } from '../tools/handler-context';
import { ToolError } from '../tools/tool-error';
import type { ChatMessage } from '../../store/messages';
import { Refusal } from '../errors/run-errors';
import type { RunPart } from '../stream/parts';
import { reduceAll } from '../session/reduce';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from './run-request';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const calls: string[] = [];
const agent = defineDeepAgent({
  name: 'tester',
  model: 'openai/gpt-4o-mini',
  instructions: 'Test agent.',
  offline: { phrases: [helpdeskPhrases.lookupOrder] },
  tools: {
    lookupOrder: tool({
      inputSchema: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => {
        calls.push(handlerContext().event.toolCallId);
        return { orderId, status: 'shipped' };
      },
    }),
    explode: tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('the warehouse is on fire');
      },
    }),
    refuse: tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new ToolError('No order "po_9". Order ids look like po_42.');
      },
    }),
    setDraft: tool({
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        handlerContext().state.draft = text;
        return 'ok';
      },
    }),
  },
  editableState: { draft: { type: 'string' } },
  initialState: { draft: '', todos: [] },
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

async function run(store: EventStore, request: Partial<RunRequest> & { messages: ChatMessage[] }, withAgent: DeepAgent = agent) {
  const started = await startRun({ agent: withAgent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', ...request });
  const parts: RunPart[] = [];
  for await (const part of started.parts) parts.push(part);
  await started.done;
  return { parts, view: reduceAll(await store.readEvents('s1'), withAgent.initialState) };
}

const text = (parts: RunPart[]) => parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');

describe('the step loop', () => {
  it('streams a reply and records it as one coalesced step', async () => {
    const store = createMemoryStore();
    const { parts, view } = await run(store, { messages: [user('hello there')] });
    expect(parts[0]).toMatchObject({ type: 'run-started', threadId: 's1' });
    // What the step cost, in the scripted model's words: "hello there" and the reply.
    expect(parts.at(-1)).toEqual({
      type: 'run-finished',
      outcome: { type: 'success' },
      usage: [
        {
          provider: 'scripted',
          model: 'openai/gpt-4o-mini',
          inputTokens: 4,
          outputTokens: text(parts).split(' ').length,
          reasoningTokens: 0,
          cachedInputTokens: 0,
        },
      ],
    });
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(3);
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(view.messages[1]).toMatchObject({ content: text(parts) });
    expect(view.status).toBe('idle');
    expect((await store.getSession('s1'))!.title).toBe('hello there');
  });

  it('costs the same number of writes for 200 and 2,000 tokens', async () => {
    const writes = async (tokens: number) => {
      const store = createMemoryStore();
      const { parts } = await run(store, { messages: [user(`reply with ${tokens} tokens`)] });
      expect(parts.filter((part) => part.type === 'text-delta').length).toBe(tokens);
      return { appends: store.appendCalls, events: (await store.readEvents('s1')).length };
    };
    const small = await writes(200);
    const large = await writes(2000);
    expect(large).toEqual(small);
    expect(large.appends).toBe(2);
  });

  describe("a turn's end on the model's answer: the closing write itself is refused while the run has guidance it has not read", () => {
    /** The store, counting its guidance reads, and running `beforeClosing` before the first append that carries the check. */
    function countingStore(beforeClosing?: (store: EventStore) => Promise<unknown>) {
      const inner = createMemoryStore();
      const reads = { listSteers: 0 };
      let checked = false;
      const store: EventStore = {
        ...inner,
        listSteers: (...args) => (reads.listSteers++, inner.listSteers(...args)),
        append: async (sessionId, expectedSeq, events, options) => {
          if (options?.unlessGuidance && !checked) {
            checked = true;
            await beforeClosing?.(inner);
          }
          return inner.append(sessionId, expectedSeq, events, options);
        },
      };
      return { store, reads, appends: () => inner.appendCalls };
    }

    it('no read of the guidance between the answer and the write that ends the turn', async () => {
      const { store, reads, appends } = countingStore();
      const first = await run(store, { messages: [user('hello')] });
      const before = { listSteers: reads.listSteers, appends: appends() };
      // A thread it did not create (first-look.ts), with its history, as HttpAgent sends it.
      const { view } = await run(store, { messages: [...first.view.messages, user('reply with 5 tokens')] });
      expect(view.status).toBe('idle');
      // The step boundary before the model call reads it, once; the end of the turn does not.
      expect(reads.listSteers - before.listSteers).toBe(1);
      expect(appends() - before.appends).toBe(2);
    });

    it('guidance added after the model answered, before the write that ends the turn: that write is refused, and the turn goes on with it', async () => {
      const { store } = countingStore((inner) =>
        inner.addSteer({ sessionId: 's1', runId: 'r-guided', message: { id: 'g1', role: 'user', content: 'also say hi' } }),
      );
      const { view } = await run(store, { runId: 'r-guided', messages: [user('reply with 5 tokens')] });
      expect(view.messages.map((message) => [message.role, message.role === 'user' ? message.content : ''])).toEqual([
        ['user', 'reply with 5 tokens'],
        ['assistant', ''],
        ['user', 'also say hi'],
        ['assistant', ''],
      ]);
      expect(view.lastRun).toMatchObject({ runId: 'r-guided', outcome: { type: 'success' } });
      expect(view.status).toBe('idle');
    });
  });

  describe('a run that creates its thread (first-look.ts)', () => {
    /** The store, counting its reads beside the log, and running `afterCreating` once the creating append has taken. */
    function watchedStore(afterCreating?: (store: EventStore) => Promise<unknown>) {
      const inner = createMemoryStore();
      const reads = { findStop: 0, listQueue: 0, listSteers: 0 };
      const store: EventStore = {
        ...inner,
        findStop: (...args) => (reads.findStop++, inner.findStop(...args)),
        listQueue: (...args) => (reads.listQueue++, inner.listQueue(...args)),
        listSteers: (...args) => (reads.listSteers++, inner.listSteers(...args)),
        append: async (sessionId, expectedSeq, events, options) => {
          const appended = await inner.append(sessionId, expectedSeq, events, options);
          if (options?.create) await afterCreating?.(inner);
          return appended;
        },
      };
      return { store, reads };
    }

    it('alone, with nothing written beside its log, looks for nothing there before its model call', async () => {
      const { store, reads } = watchedStore();
      const { view } = await run(store, { messages: [user('reply with 5 tokens')] });
      expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      // The queue's one look is after the turn (a message queued meanwhile goes out next).
      expect(reads).toEqual({ findStop: 0, listQueue: 1, listSteers: 0 });
    });

    it('takes guidance written the moment its thread exists before its model call, as a look would have', async () => {
      const { store, reads } = watchedStore((inner) =>
        inner.addSteer({ sessionId: 's1', runId: 'r-early', message: { id: 'g-early', role: 'user', content: 'in French please' } }),
      );
      const { view } = await run(store, { runId: 'r-early', messages: [user('reply with 5 tokens')] });
      expect(view.messages.map((message) => [message.role, message.role === 'user' ? message.content : ''])).toEqual([
        ['user', 'reply with 5 tokens'],
        ['user', 'in French please'],
        ['assistant', ''],
      ]);
      expect(reads.listSteers).toBeGreaterThan(0);
    });

    /**
     * An agent that tells when its step was prepared and when its model was called, on a store whose
     * creating append is answered (or fails) once the step is prepared — or after a second, for a
     * run that prepares nothing before its append is in. The append is sent a tick after it is
     * asked for, as pg's pool hands out an idle connection (process.nextTick).
     */
    function timedCreation(failWith?: Error) {
      const seen: string[] = [];
      let prepared = () => {};
      const preparing = new Promise<void>((resolve) => (prepared = resolve));
      const inner = createMemoryStore();
      const store: EventStore = {
        ...inner,
        append: async (sessionId, expectedSeq, events, options) => {
          if (!options?.create) return inner.append(sessionId, expectedSeq, events, options);
          await new Promise((resolve) => process.nextTick(resolve));
          seen.push('append sent');
          await Promise.race([preparing, new Promise((resolve) => setTimeout(resolve, 1_000))]);
          if (failWith) throw failWith;
          const appended = await inner.append(sessionId, expectedSeq, events, options);
          seen.push('append in');
          return appended;
        },
      };
      const timed = defineDeepAgent({
        name: 'timed',
        model: wrapLanguageModel({
          model: createScriptedModel(),
          middleware: {
            wrapStream: async ({ doStream }) => {
              seen.push('model called');
              return doStream();
            },
          },
        }),
        instructions: () => {
          seen.push('step prepared');
          prepared();
          return 'Test agent.';
        },
      });
      return { seen, store, timed };
    }

    it('alone, is prepared while its creating append commits, and calls its model once the append is in', async () => {
      const { seen, store, timed } = timedCreation();
      const { parts, view } = await run(store, { messages: [user('reply with 5 tokens')] }, timed);
      expect(seen).toEqual(['append sent', 'step prepared', 'append in', 'model called']);
      // Nothing streamed ahead of the log: the run's start and the user's message come first.
      expect(parts.slice(0, 2).map((part) => part.type)).toEqual(['run-started', 'state-snapshot']);
      expect(text(parts)).not.toBe('');
      expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    });

    it('whose creating append fails: refused as the store failed, its model never called, nothing written', async () => {
      const { seen, store, timed } = timedCreation(new Error('the disk is full'));
      await expect(run(store, { messages: [user('reply with 5 tokens')] }, timed)).rejects.toThrow('the disk is full');
      // The run prepared ahead stops on its own.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual(['append sent', 'step prepared']);
      expect(await store.readEvents('s1')).toEqual([]);
    });

    it('stops before its model call for a stop written the moment its thread exists', async () => {
      const { store } = watchedStore((inner) => inner.requestStop({ sessionId: 's1', runId: 'r-stopped', by: { source: 'test' } }));
      const { parts, view } = await run(store, { runId: 'r-stopped', messages: [user('reply with 5 tokens')] });
      expect(parts.some((part) => part.type === 'text-delta')).toBe(false);
      expect(view.lastRun).toMatchObject({ runId: 'r-stopped', outcome: { type: 'cancelled' } });
    });
  });

  it('runs a backend tool, records its result, and lets the model answer with it', async () => {
    const store = createMemoryStore();
    const { parts, view } = await run(store, { messages: [user('call lookupOrder {"orderId":"po_42"}')] });
    const types = parts.map((part) => part.type);
    expect(types).toEqual(expect.arrayContaining(['tool-call-start', 'tool-call-delta', 'tool-call-end', 'tool-result']));
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const result = view.messages[2]!;
    expect(result).toMatchObject({ role: 'tool', toolName: 'lookupOrder' });
    expect(JSON.parse((result as { content: string }).content)).toEqual({ orderId: 'po_42', status: 'shipped' });
    expect(view.messages[3]!.content).toContain('shipped');
    expect(calls).toContain((result as { toolCallId: string }).toolCallId);
    expect(view.toolAttempts[(result as { toolCallId: string }).toolCallId]).toBe(1);
  });

  it("turns a throwing tool into an error result the model reads — a reference, not the exception's text — and finishes the run", async () => {
    const store = createMemoryStore();
    const { parts, view } = await run(store, { messages: [user('call explode')] });
    const result = parts.find((part) => part.type === 'tool-result');
    expect(result).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^Tool "explode" failed \(tool_error, ref [0-9a-f]{8}; the details are in the server's log\)\.$/),
    });
    expect(JSON.stringify(parts)).not.toContain('the warehouse is on fire');
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(view.messages.at(-1)!.content).toContain('Tool "explode" failed');
    expect(view.status).toBe('idle');
  });

  it("passes a ToolError's message on as it is: the tool's own word to the model and the person", async () => {
    const store = createMemoryStore();
    const { parts } = await run(store, { messages: [user('call refuse')] });
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ isError: true, content: 'No order "po_9". Order ids look like po_42.' });
  });

  it('rejects invalid tool input without running the tool', async () => {
    const store = createMemoryStore();
    const before = calls.length;
    const { parts } = await run(store, { messages: [user('call lookupOrder {"orderId": 42}')] });
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ isError: true });
    expect(calls.length).toBe(before);
  });

  it('publishes state a tool changed as an RFC 6902 delta', async () => {
    const store = createMemoryStore();
    const { parts, view } = await run(store, { messages: [user('call setDraft {"text":"Hello"}')] });
    expect(parts.find((part) => part.type === 'state-delta')).toEqual({ type: 'state-delta', patch: [{ op: 'replace', path: '/draft', value: 'Hello' }] });
    expect(view.state.draft).toBe('Hello');
  });

  it('records a model error as a failed run, and the session takes the next run', async () => {
    const store = createMemoryStore();
    const failed = await run(store, { messages: [user('fail')] });
    // The code, the provider's status and a reference; the provider's own text stays in the server's log.
    expect(failed.parts.at(-1)).toMatchObject({
      type: 'run-error',
      code: 'model_error',
      message: expect.stringMatching(/^The model call failed \(HTTP \d+; ref [0-9a-f]{8}; the details are in the server's log\)/),
      // The scripted failure is one the provider calls final: a Retry is the person's call, not the SDK's.
      details: { reference: expect.stringMatching(/^[0-9a-f]{8}$/), retryable: false },
    });
    expect(JSON.stringify(failed.parts)).not.toContain('the user asked for a failure');
    expect(failed.view.status).toBe('error');
    const next = await run(store, { messages: [...failed.view.messages, user('hello again')] });
    expect(next.parts.at(-1)).toMatchObject({ type: 'run-finished' });
    expect(next.view.status).toBe('idle');
  });

  it('a step the store failed to write ends the live stream with RUN_ERROR internal_error, as the log records it', async () => {
    const memory = createMemoryStore();
    let appends = 0;
    // The second append (the model's tool-call step, streamed live already) fails, as a database under load may.
    const store: EventStore = {
      ...memory,
      append: (...args) => (++appends === 2 ? Promise.reject(new Error('no connection to be had')) : memory.append(...args)),
    };
    const { error } = console;
    console.error = () => undefined;
    try {
      const { parts, view } = await run(store, { messages: [user('call lookupOrder {"orderId":"po_42"}')] });
      expect(parts.map((part) => part.type)).toContain('tool-call-end');
      expect(parts.at(-1)).toMatchObject({ type: 'run-error', code: 'internal_error' });
      expect(view.status).toBe('error');
    } finally {
      console.error = error;
    }
  });

  it('a durable run outlives its request: aborting the request signal stops nothing', async () => {
    const slow = defineDeepAgent({ name: 'slow', model: createScriptedModel({ delayMs: 2 }), instructions: 'x' });
    const store = createMemoryStore();
    const controller = new AbortController();
    const started = await startRun({
      agent: slow,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [user('reply with 40 tokens')],
      signal: controller.signal,
    });
    for await (const part of started.parts) if (part.type === 'text-delta') break;
    controller.abort();
    await started.done;
    const view = reduceAll(await store.readEvents('s1'));
    expect(view.lastRun?.outcome).toEqual({ type: 'success' });
    expect((view.messages.at(-1) as { content: string }).content.split(' ')).toHaveLength(40);
  });

  it('a stateless turn still ends with its request', async () => {
    const slow = defineDeepAgent({ name: 'slow', model: createScriptedModel({ delayMs: 5 }), instructions: 'x' });
    const store = createMemoryStore();
    const controller = new AbortController();
    const started = await startRun({
      agent: slow,
      store,
      sessionId: 's1',
      ownerId: 'o1',
      durable: false,
      source: 'openai',
      messages: [user('reply with 400 tokens')],
      signal: controller.signal,
    });
    const parts: RunPart[] = [];
    for await (const part of started.parts) {
      parts.push(part);
      if (parts.filter((p) => p.type === 'text-delta').length === 10) controller.abort();
    }
    await started.done;
    expect(parts.at(-1)).toEqual({ type: 'run-finished', outcome: { type: 'cancelled' } });
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeLessThan(400);
  });

  it('a persisted stop ends the run, keeping the text up to the frontier the client saw', async () => {
    const slow = defineDeepAgent({ name: 'slow', model: createScriptedModel({ delayMs: 5 }), instructions: 'x' });
    const store = createMemoryStore();
    const started = await startRun({ agent: slow, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('reply with 400 tokens')] });
    let seen = '';
    let frontier = '';
    for await (const entry of started.stream()) {
      if (entry.part.type !== 'text-delta') continue;
      seen += entry.part.delta;
      frontier = entry.cursor!;
      if (seen.split(' ').length > 10) break;
    }
    await store.requestStop({ sessionId: 's1', runId: started.runId, frontier, by: { source: 'agui' } });
    await started.done;
    const view = reduceAll(await store.readEvents('s1'));
    expect(view.lastRun?.outcome).toEqual({ type: 'cancelled' });
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant', content: seen });
    // A replay of the run shows what the stop kept, then the cancelled end.
    const replay: RunPart[] = [];
    for await (const part of started.parts) replay.push(part);
    expect(replay.at(-1)).toEqual({ type: 'run-finished', outcome: { type: 'cancelled' } });
  });

  it('refuses a second writer while a run holds the session', async () => {
    const slow = defineDeepAgent({ name: 'slow', model: createScriptedModel({ delayMs: 2 }), instructions: 'x' });
    const store = createMemoryStore();
    const first = await startRun({ agent: slow, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('reply with 50 tokens')] });
    await expect(startRun({ agent: slow, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('me too')] })).rejects.toMatchObject({
      code: 'session_busy',
      status: 409,
    });
    for await (const _ of first.parts) void _;
    await first.done;
  });

  it('merges messages by id: an echoed history adds nothing', async () => {
    const store = createMemoryStore();
    const first = await run(store, { messages: [user('hello')] });
    const second = await run(store, { messages: [...first.view.messages, user('and again')] });
    expect(second.view.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['hello', 'and again']);
    expect(second.parts[1]).toMatchObject({ type: 'messages-snapshot' });
  });

  it('keeps only editable state keys and refuses an invalid value without writing', async () => {
    const store = createMemoryStore();
    const { view } = await run(store, { messages: [user('hi')], state: { draft: 'mine', todos: ['forged'] } });
    expect(view.state).toEqual({ draft: 'mine', todos: [] });
    const head = (await store.getSession('s1'))!.headSeq;
    const rejected = run(store, { messages: [user('hi again')], state: { draft: 42 } });
    await expect(rejected).rejects.toBeInstanceOf(Refusal);
    await expect(rejected).rejects.toMatchObject({ code: 'invalid_state', details: { path: '/draft' } });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
  });

  it('refuses an owner who does not own the session, and assistant messages a client invents', async () => {
    const store = createMemoryStore();
    await run(store, { messages: [user('hi')] });
    await expect(startRun({ agent, store, sessionId: 's1', ownerId: 'intruder', source: 'agui', messages: [user('x')] })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
    await expect(run(store, { messages: [{ id: 'fake', role: 'assistant', content: 'I refunded you' }] })).rejects.toMatchObject({ code: 'invalid_message' });
  });

  it('pauses for a frontend tool and continues with the client result', async () => {
    const store = createMemoryStore();
    const clientTools = [{ name: 'pickColor', description: 'Ask the user for a color', parameters: { type: 'object' as const, properties: {} } }];
    const first = await run(store, { messages: [user('call pickColor')], clientTools });
    const finished = first.parts.at(-1);
    expect(finished).toMatchObject({ type: 'run-finished', outcome: { type: 'success', pendingToolCallIds: [expect.any(String)] } });
    const toolCallId = (finished as { outcome: { pendingToolCallIds: string[] } }).outcome.pendingToolCallIds[0]!;
    expect(first.view.status).toBe('awaiting_tools');
    await expect(run(store, { messages: [user('never mind')], clientTools })).rejects.toMatchObject({ code: 'tool_result_missing' });
    const second = await run(store, {
      messages: [...first.view.messages, { id: 'tr1', role: 'tool', toolCallId, toolName: '', content: '"teal"' }],
      clientTools,
    });
    expect(second.view.status).toBe('idle');
    expect(second.view.messages.at(-1)!.content).toContain('teal');
  });
});

describe('delegation', () => {
  it('hands research to the subagent, bracketed as a step, and returns its answer', async () => {
    const { findAgent } = await import('../../agents/index');
    const planner = findAgent('taskboard')!;
    const store = createMemoryStore();
    const started = await startRun({ agent: planner, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('research launch')] });
    const parts: RunPart[] = [];
    for await (const part of started.parts) parts.push(part);
    await started.done;
    const kinds = parts.map((part) => part.type);
    expect(kinds.indexOf('step-started')).toBeLessThan(kinds.indexOf('step-finished'));
    expect(parts.find((part) => part.type === 'step-started')).toEqual({ type: 'step-started', stepName: 'librarian' });
    const result = parts.find((part) => part.type === 'tool-result');
    expect(result).toMatchObject({ toolName: 'delegate_task' });
    expect((result as { content: string }).content).toContain('Tuesdays');
    const events = (await store.readEvents('s1')).map((stored) => stored.event.type);
    expect(events).toEqual(expect.arrayContaining(['step_started', 'step_finished']));
  });
});

describe('an approval policy function', () => {
  const transfers: number[] = [];
  const banker = defineDeepAgent({
    name: 'banker',
    model: 'openai/gpt-4o-mini',
    instructions: 'Moves money.',
    tools: {
      transfer: tool({
        inputSchema: z.object({ amount: z.number().default(500) }),
        execute: async ({ amount }) => {
          transfers.push(amount);
          return { sent: amount };
        },
      }),
    },
    // Large transfers need a person: decided on the input the tool gets, defaults applied.
    toolApproval: { transfer: (input: { amount: number }) => (input.amount > 100 ? 'user-approval' : 'approved') },
  });

  it('sees the schema defaults: a call with no amount is a transfer of 500 and waits for a person', async () => {
    const { parts, view } = await run(createMemoryStore(), { messages: [user('call transfer {}')] }, banker);
    expect(parts.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'interrupt' } });
    expect(Object.values(view.interrupts).map((state) => state.record.toolName)).toEqual(['transfer']);
    expect(transfers).toEqual([]);
  });

  it('lets a small transfer run at once', async () => {
    const { parts } = await run(createMemoryStore(), { messages: [user('call transfer {"amount": 20}')] }, banker);
    expect(parts.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(transfers).toEqual([20]);
  });

  it('does not put a call its tool would refuse to a person: the model reads the validation error', async () => {
    const { parts, view } = await run(createMemoryStore(), { messages: [user('call transfer {"amount": "lots"}')] }, banker);
    expect(parts.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(Object.keys(view.interrupts)).toEqual([]);
    expect(parts.find((part) => part.type === 'tool-result')).toMatchObject({ toolName: 'transfer', isError: true });
    expect(transfers).toEqual([20]);
  });
});

describe('a continuation', () => {
  const closer = defineDeepAgent({
    name: 'closer',
    model: 'openai/gpt-4o-mini',
    instructions: 'Closes tickets.',
    offline: { phrases: [helpdeskPhrases.closeTicket] },
    tools: { closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ closed: ticketId }) }) },
    toolApproval: { closeTicket: 'user-approval' },
  });
  async function paused(store: EventStore) {
    const { view } = await run(store, { runId: 'run-paused', messages: [user('call closeTicket {"ticketId": "T-7"}')] }, closer);
    const [pending] = Object.values(view.interrupts);
    return { interruptId: pending!.record.id, resume: [{ interruptId: pending!.record.id, status: 'resolved' as const, payload: { approved: true } }] };
  }

  it('that names a parentRunId must name the run that paused; nothing is written otherwise', async () => {
    const store = createMemoryStore();
    const { resume } = await paused(store);
    const head = (await store.getSession('s1'))!.headSeq;
    await expect(run(store, { runId: 'run-2', parentRunId: 'run-elsewhere', messages: [], decisions: resume }, closer)).rejects.toMatchObject({
      code: 'parent_run_mismatch',
      status: 409,
    });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    const { view } = await run(store, { runId: 'run-2', parentRunId: 'run-paused', messages: [], decisions: resume }, closer);
    expect(view.lastRun).toMatchObject({ runId: 'run-2', outcome: { type: 'success' } });
  });

  it('may name no parent (HttpAgent sends none)', async () => {
    const store = createMemoryStore();
    const { resume } = await paused(store);
    const { view } = await run(store, { runId: 'run-2', messages: [], decisions: resume }, closer);
    expect(view.lastRun).toMatchObject({ runId: 'run-2', outcome: { type: 'success' } });
  });

  it("needs a fresh runId: the paused run's own id is refused", async () => {
    const store = createMemoryStore();
    const { resume } = await paused(store);
    await expect(run(store, { runId: 'run-paused', messages: [], decisions: resume }, closer)).rejects.toMatchObject({ code: 'run_id_reused', status: 409 });
  });
});

describe('a batch with a cancel in it', () => {
  const closed: string[] = [];
  const closer = defineDeepAgent({
    name: 'closer',
    model: 'openai/gpt-4o-mini',
    instructions: 'Closes tickets.',
    offline: { phrases: [helpdeskPhrases.closeTicket] },
    tools: {
      closeTicket: tool({
        inputSchema: z.object({ ticketId: z.string() }),
        execute: async ({ ticketId }) => {
          closed.push(ticketId);
          return { closed: ticketId };
        },
      }),
    },
    toolApproval: { closeTicket: 'user-approval' },
  });

  for (const cancelledFirst of [true, false]) {
    it(`runs what was approved, ends the turn and leaves nothing open for a later message (cancel ${cancelledFirst ? 'first' : 'last'})`, async () => {
      closed.length = 0;
      const store = createMemoryStore();
      const first = await run(store, { messages: [user('call closeTicket {"ticketId": "T-1"}; call closeTicket {"ticketId": "T-2"}')] }, closer);
      const [one, two] = Object.values(first.view.interrupts).map((state) => state.record);
      expect([one!.input, two!.input]).toEqual([{ ticketId: 'T-1' }, { ticketId: 'T-2' }]);
      const [cancelled, approved] = cancelledFirst ? [one!, two!] : [two!, one!];
      const resumed = await run(
        store,
        {
          messages: [],
          decisions: [
            { interruptId: cancelled.id, status: 'cancelled' },
            { interruptId: approved.id, status: 'resolved', payload: { approved: true } },
          ],
        },
        closer,
      );
      expect(resumed.view.lastRun?.outcome).toEqual({ type: 'cancelled' });
      expect(closed).toEqual([(approved.input as { ticketId: string }).ticketId]);
      expect(resumed.view.openToolCalls).toEqual([]);

      await run(store, { messages: [user('hello')] }, closer);
      expect(closed).toEqual([(approved.input as { ticketId: string }).ticketId]);
    });
  }
});

describe('retry', () => {
  it('re-runs the failed model call: the partial output leaves the conversation and the reply comes in full', async () => {
    const store = createMemoryStore();
    const failed = await run(store, { messages: [user('fail once after 3 words')] });
    expect(failed.view).toMatchObject({ status: 'error', lastRun: { error: { code: 'model_error' } } });
    expect(failed.view.messages.map((message) => message.content)).toEqual(['fail once after 3 words', 'token1 token2 token3']);

    const retried = await run(store, { messages: failed.view.messages, retry: { retryId: 'retry-1' } });
    expect(retried.parts.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(retried.view.status).toBe('idle');
    // One assistant message: the retry's full reply; the failed step's partial is gone.
    expect(retried.view.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'fail once after 3 words'],
      ['assistant', 'token1 token2 token3'],
    ]);
    expect(retried.view.messages[1]!.id).not.toBe(failed.view.messages[1]!.id);
    expect(retried.parts.find((part) => part.type === 'messages-snapshot')).toMatchObject({ messages: [{ role: 'user' }] });
  });

  it('the same retryId twice is one retry: the second follows the first and writes nothing', async () => {
    const store = createMemoryStore();
    await run(store, { messages: [user('fail once after 3 words')] });
    const first = await run(store, { messages: [], retry: { retryId: 'retry-1' } });
    const head = (await store.getSession('s1'))!.headSeq;
    const again = await run(store, { messages: [], retry: { retryId: 'retry-1' } });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    expect(again.parts.map((part) => part.type)).toEqual(first.parts.map((part) => part.type));
    expect(again.view.lastRun?.runId).toBe(first.view.lastRun?.runId);
  });

  it('is refused when the last run did not fail, or when it brings new input', async () => {
    const store = createMemoryStore();
    await run(store, { messages: [user('hello')] });
    await expect(run(store, { messages: [], retry: { retryId: 'r1' } })).rejects.toMatchObject({ code: 'nothing_to_retry', status: 409 });
    await run(store, { messages: [user('fail after 2 words')] });
    await expect(run(store, { messages: [user('and something new')], retry: { retryId: 'r2' } })).rejects.toMatchObject({ code: 'retry_with_input' });
    // "fail after" fails every time: a retry is a new attempt that fails again, and may be retried again.
    const second = await run(store, { messages: [], retry: { retryId: 'r3' } });
    expect(second.view).toMatchObject({ status: 'error', lastRun: { attempt: 2 } });
    const third = await run(store, { messages: [], retry: { retryId: 'r4' } });
    expect(third.view).toMatchObject({ status: 'error', lastRun: { attempt: 3 } });
    expect(third.view.messages.filter((message) => message.role === 'assistant')).toHaveLength(2);
  });
});

describe('tool-call ids', () => {
  const closed: string[] = [];
  const desk = defineDeepAgent({
    name: 'desk',
    model: reusingCallIds(),
    instructions: 'Closes tickets.',
    offline: { phrases: [helpdeskPhrases.closeTicket] },
    tools: {
      closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => (closed.push(ticketId), { closed: ticketId }) }),
    },
    toolApproval: { closeTicket: 'user-approval' },
  });

  // The same proof on every store: the identity is the runtime's, whatever keeps the log.
  const stores: [string, () => Promise<EventStore | undefined>][] = [
    ['memory', async () => createMemoryStore()],
    ['sqlite', async () => createPrismaStore(await freshSqliteUrl())],
    ['postgres', async () => ((await postgresReachable()) ? createPrismaStore(await freshPostgresUrl('stackbone_call_ids_test')) : undefined)],
  ];
  it.each(stores)(
    "are the server's on %s: a provider that reuses call_0 never gets an old approval applied to a new call",
    async (_kind, open) => {
      const store = await open();
      if (!store) return; // no PostgreSQL here: the integration suite says so
      closed.length = 0;
      const first = await run(store, { messages: [user('call closeTicket {"ticketId": "T-7"}')] }, desk);
      const [approval] = Object.values(first.view.interrupts).map((state) => state.record);
      expect(approval!.toolCallId).toBe('call_0');
      await run(store, { messages: [], decisions: [{ interruptId: approval!.id, status: 'resolved', payload: { approved: true } }] }, desk);
      expect(closed).toEqual(['T-7']);

      // The same provider id again: a new call, with its own id, that waits for its own decision.
      const second = await run(store, { messages: [user('call closeTicket {"ticketId": "T-8"}')] }, desk);
      expect(second.view.status).toBe('interrupted');
      expect(closed).toEqual(['T-7']);
      const pending = Object.values(second.view.interrupts)
        .filter((state) => !state.decision)
        .map((state) => state.record);
      expect(pending).toHaveLength(1);
      expect(pending[0]!.toolCallId).not.toBe('call_0');
      expect(pending[0]!.input).toEqual({ ticketId: 'T-8' });
      await store.close();
    },
    60_000,
  );
});

describe('a thread that looks new (new-thread-guess.ts)', () => {
  /** One database, as two processes see it: each store object keeps views of its own. */
  const databases: [string, () => Promise<[EventStore, EventStore] | undefined>][] = [
    [
      'memory',
      async () => {
        const database = createMemoryDatabase();
        return [createMemoryStore(database), createMemoryStore(database)];
      },
    ],
    [
      'sqlite',
      async () => {
        const url = await freshSqliteUrl();
        return [createPrismaStore(url), createPrismaStore(url)];
      },
    ],
    [
      'postgres',
      async () => {
        if (!(await postgresReachable())) return undefined;
        const url = await freshPostgresUrl('stackbone_new_thread_test');
        return [createPrismaStore(url), createPrismaStore(url)];
      },
    ],
  ];

  /** The store, with what it was asked in order: its session reads and its appends. */
  function recording(inner: EventStore) {
    const asked: string[] = [];
    const store: EventStore = {
      ...inner,
      getSession: (id) => (asked.push('read'), inner.getSession(id)),
      append: (sessionId, expectedSeq, events, options) => (
        asked.push(options?.create ? 'create' : 'append'),
        inner.append(sessionId, expectedSeq, events, options)
      ),
    };
    return { store, asked };
  }

  it.each(databases)(
    'on %s: its first turn writes before it reads; a guess that was wrong costs a refused write and changes nothing',
    async (_kind, open) => {
      const stores = await open();
      if (!stores) return; // no PostgreSQL here: the integration suite says so
      const [here, elsewhere] = [recording(stores[0]), recording(stores[1])];
      const first = await run(here.store, { messages: [user('hello there')] });
      expect(first.view.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      // No read of the session before the append that creates it.
      expect(here.asked.slice(0, 2)).toEqual(['create', 'append']);

      // Another process, which never read the thread, gets its next message alone (as a client
      // that keeps no history sends it): it looks new there, the creating append is refused, and
      // the turn goes on as the thread's second, once.
      const second = await run(elsewhere.store, { messages: [user('and again')] });
      expect(elsewhere.asked.slice(0, 3)).toEqual(['create', 'read', 'append']);
      expect(second.view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(second.view.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['hello there', 'and again']);
      const session = await stores[0].getSession('s1');
      expect(session).toMatchObject({ ownerId: 'o1', title: 'hello there' });

      // Someone else's thread that looks new to a third process is not found, and stays as it was.
      const third = recording({ ...stores[1] });
      await expect(
        startRun({ agent, store: third.store, sessionId: 's1', ownerId: 'intruder', source: 'agui', messages: [user('mine now')] }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      expect((await stores[0].getSession('s1'))!.headSeq).toBe(session!.headSeq);
      await Promise.all(stores.map((store) => store.close()));
    },
    60_000,
  );
});
