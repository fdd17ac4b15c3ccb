// Floods (docs/security.md, "What a request may carry"): one request cannot queue hundreds of
// model turns, a run cannot take unbounded guidance, a session cannot pile up timers, and a
// request queued behind a long turn does not hang: each refusal is a 429 with a code that writes
// nothing. A new message on a thread that waits for a decision is refused at once. A message's
// text and a thread's log are bounded, and every id a client chooses follows one rule, on every
// way a message comes in (a run, the queue, guidance).
import { tool } from 'ai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { ChatMessage } from '../../store/messages';
import { handlerContext } from '../tools/handler-context';
import type { RunPart } from '../stream/parts';
import { changeQueue, startRun } from '../turn-control/turns';
import { userMessage } from '../turn-control/server-session';
import type { StartedRun } from '../turn/run-request';
import { requestSteer } from '../turn-control/steer';
import { fireDueTimers } from '../turn-control/timers';
import { startStatelessRun } from '../turn/stateless-run';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const LIMITS = [
  'STACKBONE_MAX_QUEUED_MESSAGES',
  'STACKBONE_MAX_STEERS_PER_RUN',
  'STACKBONE_MAX_TIMERS_PER_SESSION',
  'STACKBONE_QUEUE_WAIT_MS',
  'STACKBONE_MAX_MESSAGE_CHARS',
  'STACKBONE_MAX_THREAD_BYTES',
] as const;
afterEach(() => {
  for (const name of LIMITS) delete process.env[name];
});

/** Holds its turn until released. */
let release: () => void = () => undefined;
const agent = defineDeepAgent({
  name: 'busy',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  tools: {
    hold: tool({ inputSchema: z.object({}), execute: () => new Promise((resolve) => (release = () => resolve({ held: true }))) }),
    remind: tool({
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        const { session } = handlerContext();
        for (let i = 0; i < n; i++) await session.schedule(`remind-${i}`, { delay: '1h' }, userMessage(`Reminder ${i}`));
        return { scheduled: n };
      },
    }),
    closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ closed: ticketId }) }),
  },
  toolApproval: { closeTicket: 'user-approval' },
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });

async function drain(run: StartedRun): Promise<RunPart[]> {
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

/** A session whose turn is running (held in its tool). */
async function busy(): Promise<{ store: EventStore; turn: StartedRun }> {
  const store = createMemoryStore();
  const turn = await startRun({ agent, store, sessionId: 'o1/t', ownerId: 'o1', source: 'agui', messages: [user('call hold')] });
  for (let i = 0; i < 200 && (await store.getSession('o1/t'))?.status !== 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { store, turn };
}

describe('per-session limits', () => {
  it('one request with more new messages than the queue holds is refused whole: 429 queue_full, nothing queued', async () => {
    process.env.STACKBONE_MAX_QUEUED_MESSAGES = '5';
    const { store, turn } = await busy();
    const flood = Array.from({ length: 2_000 }, (_, i) => user(`message ${i}`));
    await expect(startRun({ agent, store, sessionId: 'o1/t', ownerId: 'o1', source: 'agui', messages: flood, queue: 'running' })).rejects.toMatchObject({
      code: 'queue_full',
      status: 429,
    });
    expect(await store.listQueue('o1/t')).toEqual([]);
    // Within the limit it queues; the queue endpoint counts the same way.
    await startRun({
      agent,
      store,
      sessionId: 'o1/t',
      ownerId: 'o1',
      source: 'agui',
      messages: [user('a'), user('b'), user('c'), user('d')],
      queue: 'running',
    });
    await changeQueue(store, () => agent, { sessionId: 'o1/t', ownerId: 'o1', source: 'agui' }, { op: 'add', message: user('e') });
    await expect(
      changeQueue(store, () => agent, { sessionId: 'o1/t', ownerId: 'o1', source: 'agui' }, { op: 'add', message: user('f') }),
    ).rejects.toMatchObject({ code: 'queue_full', status: 429 });
    expect((await store.listQueue('o1/t')).map((item) => item.message.content)).toEqual(['a', 'b', 'c', 'd', 'e']);
    release();
    await turn.done;
  });

  it('a run takes at most so much guidance: 429 too_many_steers; a resend of one it has is not counted', async () => {
    process.env.STACKBONE_MAX_STEERS_PER_RUN = '2';
    const { store, turn } = await busy();
    const steer = (id: string) =>
      requestSteer(store, () => agent, { sessionId: 'o1/t', ownerId: 'o1', message: { id, role: 'user', content: `guidance ${id}` } });
    await steer('s1');
    await steer('s2');
    await steer('s1');
    await expect(steer('s3')).rejects.toMatchObject({ code: 'too_many_steers', status: 429 });
    expect((await store.listSteers('o1/t', turn.runId)).map((record) => record.message.id)).toEqual(['s1', 's2']);
    release();
    await turn.done;
  });

  it('a session holds at most so many waiting timers; the tool that asks for more is told, and nothing past the limit is scheduled', async () => {
    process.env.STACKBONE_MAX_TIMERS_PER_SESSION = '3';
    const store = createMemoryStore();
    const parts = await drain(await startRun({ agent, store, sessionId: 'o1/r', ownerId: 'o1', source: 'agui', messages: [user('call remind {"n": 5}')] }));
    const result = parts.find((part) => part.type === 'tool-result');
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('this session has 3 timers waiting, the most it may have') });
    expect(await store.countPendingTimers('o1/r')).toBe(3);
    // Scheduling a key it has again is harmless at the limit.
    const again = await drain(await startRun({ agent, store, sessionId: 'o1/r', ownerId: 'o1', source: 'agui', messages: [user('call remind {"n": 3}')] }));
    expect(again.find((part) => part.type === 'tool-result')).toMatchObject({ content: '{"scheduled":3}' });
  });
});

describe('a request queued behind a running turn', () => {
  it('waits at most STACKBONE_QUEUE_WAIT_MS, then ends saying the message is queued, with its id and run; the message still goes out', async () => {
    process.env.STACKBONE_QUEUE_WAIT_MS = '150';
    const { store, turn } = await busy();
    const message = user('reply with 2 tokens');
    const started = Date.now();
    const parts = await drain(
      await startRun({ agent, store, sessionId: 'o1/t', ownerId: 'o1', source: 'agui', runId: 'queued-run', messages: [message], queue: 'running' }),
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(parts).toEqual([
      { type: 'run-started', threadId: 't', runId: 'queued-run' },
      {
        type: 'run-error',
        code: 'message_queued',
        message: expect.stringContaining(`Message "${message.id}" is queued`),
        details: { messageId: message.id, runId: 'queued-run' },
      },
    ]);
    expect((await store.listQueue('o1/t')).map((item) => item.message.id)).toEqual([message.id]);
    release();
    await turn.done;
    for (let i = 0; i < 200 && (await store.listQueue('o1/t')).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 200 && (await store.getSession('o1/t'))?.status !== 'idle'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const events = (await store.readEvents('o1/t')).map((stored) => stored.event);
    expect(events.some((event) => event.type === 'run_started' && event.runId === 'queued-run')).toBe(true);
  });
});

describe('a new message on a thread waiting for a decision', () => {
  it('is refused at once as interrupts_pending and writes nothing (an AG-UI client asks to queue only behind a running turn)', async () => {
    const store = createMemoryStore();
    await drain(await startRun({ agent, store, sessionId: 'o1/p', ownerId: 'o1', source: 'agui', messages: [user('call closeTicket {"ticketId": "T-7"}')] }));
    const head = (await store.getSession('o1/p'))!.headSeq;
    await expect(
      startRun({ agent, store, sessionId: 'o1/p', ownerId: 'o1', source: 'agui', messages: [user('hello?')], queue: 'running' }),
    ).rejects.toMatchObject({ code: 'interrupts_pending', status: 409 });
    expect((await store.getSession('o1/p'))!.headSeq).toBe(head);
    expect(await store.listQueue('o1/p')).toEqual([]);
  });
});

describe('a message, a thread, an id', () => {
  const queue = (store: EventStore, operation: Parameters<typeof changeQueue>[3]) =>
    changeQueue(store, () => agent, { sessionId: 'o1/t', ownerId: 'o1', source: 'agui' }, operation);
  const steer = (store: EventStore, message: ChatMessage, runId?: string) =>
    requestSteer(store, () => agent, { sessionId: 'o1/t', ownerId: 'o1', runId, message });

  it('a text past STACKBONE_MAX_MESSAGE_CHARS is 413 message_too_long on a run, the queue and a steer, writing nothing; one at it goes in', async () => {
    process.env.STACKBONE_MAX_MESSAGE_CHARS = '50';
    const fresh = createMemoryStore();
    const long = user('x'.repeat(51));
    await expect(startRun({ agent, store: fresh, sessionId: 'o1/n', ownerId: 'o1', source: 'agui', messages: [long] })).rejects.toMatchObject({
      code: 'message_too_long',
      status: 413,
      details: { limit: 50, length: 51 },
    });
    expect(await fresh.getSession('o1/n')).toBeNull();
    const { store, turn } = await busy();
    const head = (await store.getSession('o1/t'))!.headSeq;
    // Queued behind the running turn, added to the queue, edited in it, or sent as guidance: the same rule.
    await expect(startRun({ agent, store, sessionId: 'o1/t', ownerId: 'o1', source: 'agui', messages: [long], queue: 'running' })).rejects.toMatchObject({
      code: 'message_too_long',
    });
    await expect(queue(store, { op: 'add', message: long })).rejects.toMatchObject({ code: 'message_too_long' });
    await expect(steer(store, long)).rejects.toMatchObject({ code: 'message_too_long' });
    // A stateless turn (a chat wire without a session): its history is the client's input.
    await expect(
      startStatelessRun({ agent, ownerId: 'o1', source: 'openai', history: [user('hi'), { id: 'a', role: 'assistant', content: 'z'.repeat(80) }, long] }),
    ).rejects.toMatchObject({ code: 'message_too_long' });
    await drain(
      await startStatelessRun({
        agent,
        ownerId: 'o1',
        source: 'openai',
        history: [{ id: 'a', role: 'assistant', content: 'z'.repeat(80) }, user('say 1 word')],
      }),
    );
    const fits = user('y'.repeat(50));
    await queue(store, { op: 'add', message: fits });
    await expect(queue(store, { op: 'edit', messageId: fits.id, content: 'z'.repeat(51) })).rejects.toMatchObject({ code: 'message_too_long' });
    await steer(store, user('w'.repeat(50)));
    expect((await store.listQueue('o1/t')).map((item) => item.message.content)).toEqual(['y'.repeat(50)]);
    expect(await store.listSteers('o1/t', turn.runId)).toHaveLength(1);
    expect((await store.getSession('o1/t'))!.headSeq).toBe(head);
    release();
    await turn.done;
  });

  it('a thread whose log holds STACKBONE_MAX_THREAD_BYTES takes no new message: 409 thread_full saying how to go on; a new thread does', async () => {
    const store = createMemoryStore();
    await drain(await startRun({ agent, store, sessionId: 'o1/f', ownerId: 'o1', source: 'agui', messages: [user('say 3 words')] }));
    const { logBytes, headSeq } = (await store.getSession('o1/f'))!;
    expect(logBytes).toBe((await store.readEvents('o1/f')).reduce((sum, { event }) => sum + Buffer.byteLength(JSON.stringify(event)), 0));
    process.env.STACKBONE_MAX_THREAD_BYTES = String(logBytes + 20);
    const refused = startRun({ agent, store, sessionId: 'o1/f', ownerId: 'o1', source: 'agui', messages: [user('say 2 words')] });
    await expect(refused).rejects.toMatchObject({ code: 'thread_full', status: 409, details: { logBytes, limit: logBytes + 20 } });
    await expect(refused).rejects.toThrow(/Start a new thread, or fork this one at an earlier message/);
    await expect(
      changeQueue(store, () => agent, { sessionId: 'o1/f', ownerId: 'o1', source: 'agui' }, { op: 'add', message: user('later') }),
    ).rejects.toMatchObject({ code: 'thread_full' });
    expect((await store.getSession('o1/f'))!.headSeq).toBe(headSeq);
    expect(await store.listQueue('o1/f')).toEqual([]);
    // The limit is the log's: another thread, and this one's log with room again, take messages.
    await drain(await startRun({ agent, store, sessionId: 'o1/g', ownerId: 'o1', source: 'agui', messages: [user('say 2 words')] }));
    process.env.STACKBONE_MAX_THREAD_BYTES = String(logBytes + 10_000);
    await drain(await startRun({ agent, store, sessionId: 'o1/f', ownerId: 'o1', source: 'agui', messages: [user('say 2 words')] }));
    expect((await store.getSession('o1/f'))!.headSeq).toBeGreaterThan(headSeq);
  });

  it('a timer due on a full thread is dropped, once, writing nothing to the thread (it would never have room)', async () => {
    const store = createMemoryStore();
    await drain(await startRun({ agent, store, sessionId: 'o1/tf', ownerId: 'o1', source: 'agui', messages: [user('say 3 words')] }));
    const { logBytes, headSeq } = (await store.getSession('o1/tf'))!;
    await store.scheduleTimer({ sessionId: 'o1/tf', key: 'k', fireAt: new Date(Date.now() - 1_000), messages: [user('Reminder: check po_7')] });
    process.env.STACKBONE_MAX_THREAD_BYTES = String(logBytes + 20);
    const tick = await fireDueTimers(store, () => agent);
    await tick.done;
    expect(tick).toMatchObject({ fired: 0, waiting: 0 });
    expect(await store.dueTimers(new Date())).toEqual([]);
    expect((await store.getSession('o1/tf'))!.headSeq).toBe(headSeq);
  });

  it('an id a client chose that breaks the printable rule is 400 invalid_id (a run id, invalid_run_id) on every write, writing nothing', async () => {
    const fresh = createMemoryStore();
    for (const id of ['a\u0000b', 'with space', '', 'x'.repeat(257)]) {
      await expect(
        startRun({ agent, store: fresh, sessionId: 'o1/i', ownerId: 'o1', source: 'agui', messages: [{ id, role: 'user', content: 'hi' }] }),
      ).rejects.toMatchObject({ code: 'invalid_id', status: 400, details: { field: 'message id' } });
    }
    await expect(
      startRun({ agent, store: fresh, sessionId: 'o1/i', ownerId: 'o1', source: 'agui', messages: [], retry: { retryId: 'r\u0000' } }),
    ).rejects.toMatchObject({ code: 'invalid_id', details: { field: 'retryId' } });
    expect(await fresh.getSession('o1/i')).toBeNull();
    const { store, turn } = await busy();
    const bad = 'q\u0000';
    await expect(queue(store, { op: 'add', message: { id: bad, role: 'user', content: 'hi' } })).rejects.toMatchObject({ code: 'invalid_id' });
    for (const operation of [
      { op: 'remove', messageId: bad },
      { op: 'edit', messageId: bad, content: 'x' },
      { op: 'move', messageId: bad, index: 0 },
      { op: 'sendNow', messageId: bad },
    ] as const)
      await expect(queue(store, operation)).rejects.toMatchObject({ code: 'invalid_id', details: { field: 'id' } });
    await expect(steer(store, { id: bad, role: 'user', content: 'hi' })).rejects.toMatchObject({ code: 'invalid_id' });
    await expect(steer(store, user('hi'), 'run\u0000')).rejects.toMatchObject({ code: 'invalid_run_id' });
    expect(await store.listQueue('o1/t')).toEqual([]);
    expect(await store.listSteers('o1/t', turn.runId)).toEqual([]);
    release();
    await turn.done;
  });
});
