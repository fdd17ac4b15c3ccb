// An effect is undone once across its whole fork lineage (docs/time-travel.md, "Undoing a dropped
// effect"), on the memory store with the scripted model: every fork that left the effect behind
// names it the same way (the thread it ran in and its call), so an undo asked for in one is
// refused in the others and offered in none; two undos that raced past that check take the
// effect back once — the later one does not run and says so, and both run under one key.
import { tool } from 'ai';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import type { DecisionActor } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { ToolCall } from '../../store/messages';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { loadView, scopedSessionId } from '../session';
import { handlerContext, undoIdempotencyKey } from '../tools';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';
import { forkThread } from './fork-thread';
import { undoDroppedEffect, undoOffers } from './undo-effect';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** Each run of a tool, with the idempotency key it ran under; an undo's effect is kept once per key, as a real tool keeps it. */
let noted: { key: string; idempotencyKey: string }[] = [];
let undoRuns: { key: string; idempotencyKey: string }[] = [];
let undone = new Set<string>();
beforeEach(() => {
  noted = [];
  undoRuns = [];
  undone = new Set();
});

const agent = defineDeepAgent({
  name: 'notes',
  model: 'openai/gpt-4o-mini',
  instructions: 'x',
  tools: {
    noteEffect: tool({
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        noted.push({ key, idempotencyKey: handlerContext().idempotencyKey });
        return { noted: key };
      },
    }),
    unnoteEffect: tool({
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        const { idempotencyKey } = handlerContext();
        undoRuns.push({ key, idempotencyKey });
        const fresh = !undone.has(idempotencyKey);
        undone.add(idempotencyKey);
        return { undone: key, new: fresh };
      },
    }),
  },
  undo: { noteEffect: ({ input }) => ({ tool: 'unnoteEffect', input: { key: (input as { key: string }).key } }) },
  toolApproval: { unnoteEffect: 'user-approval' },
});

const OWNER = 'o1';
const ME: DecisionActor = { source: 'hitl', ownerId: OWNER, credential: 'local' };
const findAgent = () => agent;
let counter = 0;

async function say(store: EventStore, threadId: string, text: string) {
  const run = await startRun({
    agent,
    store,
    sessionId: scopedSessionId(OWNER, threadId),
    ownerId: OWNER,
    source: 'agui',
    messages: [{ id: `m${++counter}`, role: 'user', content: text }],
  });
  await run.done;
}

const viewOf = (store: EventStore, threadId: string) => loadView(store, scopedSessionId(OWNER, threadId), agent.initialState);
const sessionOf = async (store: EventStore, threadId: string) => (await store.getSession(scopedSessionId(OWNER, threadId)))!;
const offersIn = async (store: EventStore, threadId: string) => undoOffers(store, agent, await sessionOf(store, threadId), await viewOf(store, threadId));
const fork = async (store: EventStore, threadId: string, atMessageId: string) =>
  (await forkThread({ findAgent, store, ownerId: OWNER, threadId, atMessageId, mode: 'fork', source: 'agui' })).threadId;
const askUndo = (store: EventStore, threadId: string, toolCallId: string) =>
  undoDroppedEffect({ store, findAgent, sessionId: scopedSessionId(OWNER, threadId), ownerId: OWNER, toolCallId });

/** The approval the undo in a thread waits on. */
async function pendingUndo(store: EventStore, threadId: string) {
  const view = await viewOf(store, threadId);
  return Object.values(view.interrupts).find((state) => !state.decision && state.record.toolName === 'unnoteEffect')!.record;
}

async function approve(store: EventStore, threadId: string) {
  const decided = await decideInterrupt({
    store,
    findAgent,
    interruptId: (await pendingUndo(store, threadId)).id,
    request: { status: 'approved' },
    by: ME,
  });
  await decided.continuation?.done;
}

async function lastToolResult(store: EventStore, threadId: string) {
  const events = await store.readEvents(scopedSessionId(OWNER, threadId));
  return events.map(({ event }) => event).findLast((event): event is Extract<SessionEvent, { type: 'tool_result' }> => event.type === 'tool_result')!;
}

/** The original: a reply, then an effect after it; two sibling forks made at the reply leave the effect behind. */
async function twoForks() {
  const store = createMemoryStore();
  const original = `orig-${++counter}`;
  await say(store, original, 'hello');
  await say(store, original, 'call noteEffect {"key": "n1"}');
  const view = await viewOf(store, original);
  const reply = view.messages.find((message) => message.role === 'assistant')!;
  const effect = view.messages
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .find((call) => call.name === 'noteEffect')!;
  return { store, original, reply: reply.id, effect: effect.id, one: await fork(store, original, reply.id), two: await fork(store, original, reply.id) };
}

describe('an undo across the lineage', () => {
  it('asked in one fork, it is refused as already_undone in its sibling and offered in neither; approved, it runs once, under its effect’s key', async () => {
    const { store, original, effect, one, two } = await twoForks();
    expect((await offersIn(store, one)).map((offer) => offer.toolCallId)).toEqual([effect]);
    expect((await offersIn(store, two)).map((offer) => offer.toolCallId)).toEqual([effect]);

    await (
      await askUndo(store, one, effect)
    ).done;
    expect(await offersIn(store, one)).toEqual([]);
    expect(await offersIn(store, two)).toEqual([]);
    const head = (await sessionOf(store, two)).headSeq;
    await expect(askUndo(store, two, effect)).rejects.toMatchObject({ code: 'already_undone', details: { threadId: one } });
    expect((await sessionOf(store, two)).headSeq).toBe(head);

    await approve(store, one);
    expect(undoRuns).toEqual([{ key: 'n1', idempotencyKey: undoIdempotencyKey(scopedSessionId(OWNER, original), effect) }]);
    await expect(askUndo(store, two, effect)).rejects.toMatchObject({ code: 'already_undone' });
  });

  it('a fork of a fork, and a fork of a thread that inherited the effect, name it by the thread it ran in: one undo for all', async () => {
    const { store, original, reply, effect, one } = await twoForks();
    // A fork of the fork after a turn of its own: it lists the effect from the fork's record of what it left behind.
    await say(store, one, 'hello again');
    const grandchild = await fork(store, one, (await viewOf(store, one)).messages.findLast((message) => message.role === 'assistant')!.id);
    // A fork made after the effect inherits it; a fork of that one at the reply leaves it behind again.
    const afterEffect = (await viewOf(store, original)).messages.findLast((message) => message.role === 'assistant')!;
    const inheriting = await fork(store, original, afterEffect.id);
    const rewound = await fork(store, inheriting, reply);
    for (const thread of [grandchild, rewound]) expect((await offersIn(store, thread)).map((offer) => offer.toolCallId)).toEqual([effect]);

    await (
      await askUndo(store, rewound, effect)
    ).done;
    for (const thread of [one, grandchild]) {
      expect(await offersIn(store, thread)).toEqual([]);
      await expect(askUndo(store, thread, effect)).rejects.toMatchObject({ code: 'already_undone', details: { threadId: rewound } });
    }
  });

  it('two undos that raced past the check take the effect back once: the one approved later does not run, and says where it ran', async () => {
    const { store, original, effect, one, two } = await twoForks();
    await (
      await askUndo(store, one, effect)
    ).done;
    // The other request read the lineage before the first one's undo was written: it starts its own undo all the same.
    const key = undoIdempotencyKey(scopedSessionId(OWNER, original), effect);
    const raced: ToolCall = { id: 'undo_raced', name: 'unnoteEffect', input: { key: 'n1' } };
    await (
      await startRun({
        agent,
        store,
        sessionId: scopedSessionId(OWNER, two),
        ownerId: OWNER,
        source: 'agui',
        messages: [],
        undo: { of: effect, call: raced, key },
      })
    ).done;

    await approve(store, one);
    await approve(store, two);
    expect(undoRuns).toHaveLength(1);
    const told = await lastToolResult(store, two);
    expect(told.message.content).toMatch(new RegExp(`^Not run: this effect was undone already, in thread "${one}"`));
    expect(told.output).toMatchObject({ alreadyUndone: true, threadId: one });
  });

  it('approved at the very same moment, both run under the one key: the effect is taken back once', async () => {
    const { store, original, effect, one, two } = await twoForks();
    await (
      await askUndo(store, one, effect)
    ).done;
    const key = undoIdempotencyKey(scopedSessionId(OWNER, original), effect);
    await (
      await startRun({
        agent,
        store,
        sessionId: scopedSessionId(OWNER, two),
        ownerId: OWNER,
        source: 'agui',
        messages: [],
        undo: { of: effect, call: { id: 'undo_raced', name: 'unnoteEffect', input: { key: 'n1' } }, key },
      })
    ).done;
    await Promise.all([approve(store, one), approve(store, two)]);
    expect(undoRuns.length).toBeGreaterThanOrEqual(1);
    expect(new Set(undoRuns.map((run) => run.idempotencyKey))).toEqual(new Set([key]));
    expect(undone).toEqual(new Set([key]));
  });

  it('in one fork, undos asked at once are one, and one that read the thread before the first was written is refused by the run it would start', async () => {
    const { store, original, effect, one } = await twoForks();
    const asked = await Promise.allSettled([askUndo(store, one, effect), askUndo(store, one, effect), askUndo(store, one, effect)]);
    expect(asked.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of asked)
      if (result.status === 'rejected') expect(['already_undone', 'session_busy']).toContain((result.reason as { code: string }).code);
    await Promise.all(asked.flatMap((result) => (result.status === 'fulfilled' ? [result.value.done] : [])));
    await approve(store, one);
    // The late one's run checks the thread it appends to (a compare-and-set on its head): the undo is there, so nothing is written.
    const head = (await sessionOf(store, one)).headSeq;
    const late = {
      of: effect,
      call: { id: 'undo_late', name: 'unnoteEffect', input: { key: 'n1' } },
      key: undoIdempotencyKey(scopedSessionId(OWNER, original), effect),
    };
    await expect(
      startRun({ agent, store, sessionId: scopedSessionId(OWNER, one), ownerId: OWNER, source: 'agui', messages: [], undo: late }),
    ).rejects.toMatchObject({
      code: 'already_undone',
    });
    expect((await sessionOf(store, one)).headSeq).toBe(head);
    const steps = (await store.readEvents(scopedSessionId(OWNER, one))).filter(({ event }) => event.type === 'assistant_step' && event.undoOf === effect);
    expect(steps).toHaveLength(1);
  });
});
