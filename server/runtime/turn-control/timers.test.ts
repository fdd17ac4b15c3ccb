// Timers on the memory store: a tool schedules, the tick fires once and runs the agent, a
// repeat of the key schedules nothing new, a busy session makes a timer wait, and a timer whose
// messages are already in (a crash before it was marked fired) fires without adding them again.
import { beforeAll, describe, expect, it } from 'vitest';
import { findAgent } from '../../agents/index';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { reduceAll } from '../session/reduce';
import { appendToSession, userMessage } from './server-session';
import { startRun } from './turns';
import { fireDueTimers } from './timers';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const support = () => findAgent('helpdesk')!;
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function turn(store: EventStore, text: string) {
  const run = await startRun({ agent: support(), store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage(text)] });
  for await (const _part of run.parts);
  await run.done;
}
const view = async (store: EventStore) => reduceAll(await store.readEvents('s1'), support().initialState);
const userTexts = async (store: EventStore) => (await view(store)).messages.filter((message) => message.role === 'user').map((message) => message.content);

describe('timers', () => {
  it('a reminder scheduled by a tool fires once, when due, and the agent answers it', async () => {
    const store = createMemoryStore();
    await turn(store, 'remind me in 1 seconds to check po_42');
    expect(await store.dueTimers(new Date())).toEqual([]);
    const [timer] = await store.dueTimers(later(2));
    expect(timer).toMatchObject({ key: expect.stringMatching(/^remind:/), messages: [{ role: 'user', content: 'Reminder: check po_42' }] });

    const tick = await fireDueTimers(store, findAgent, later(2));
    expect(tick).toMatchObject({ fired: 1, waiting: 0 });
    await tick.done;
    expect(await userTexts(store)).toEqual(['remind me in 1 seconds to check po_42', 'Reminder: check po_42']);
    expect((await view(store)).messages.at(-1)).toMatchObject({ role: 'assistant' });

    expect(await fireDueTimers(store, findAgent, later(5))).toMatchObject({ fired: 0, waiting: 0 });
    expect(await userTexts(store)).toHaveLength(2);
  });

  it('the same key twice is one timer (a tool carried out again converges on it)', async () => {
    const store = createMemoryStore();
    await turn(store, 'hello');
    const first = await store.scheduleTimer({ sessionId: 's1', key: 'remind:call_1', fireAt: later(1), messages: [userMessage('Reminder: one')] });
    const again = await store.scheduleTimer({ sessionId: 's1', key: 'remind:call_1', fireAt: later(9), messages: [userMessage('Reminder: two')] });
    expect(again).toEqual({ timer: first.timer, created: false });
  });

  it('fired while the session waits on a decision, its message is queued and goes out after the decision', async () => {
    const store = createMemoryStore();
    await turn(store, 'close ticket T-7');
    await store.scheduleTimer({ sessionId: 's1', key: 'k', fireAt: later(-1), messages: [userMessage('Reminder: follow up')] });
    expect(await fireDueTimers(store, findAgent)).toMatchObject({ fired: 1, waiting: 0 });
    expect((await store.listQueue('s1')).map((item) => item.message.content)).toEqual(['Reminder: follow up']);
    expect(await userTexts(store)).toEqual(['close ticket T-7']);
    // Fired once: the next tick has nothing to do.
    expect(await fireDueTimers(store, findAgent)).toMatchObject({ fired: 0, waiting: 0 });

    const [pending] = Object.values((await view(store)).interrupts).map((state) => state.record);
    const resumed = await startRun({
      agent: support(),
      store,
      sessionId: 's1',
      ownerId: 'o1',
      source: 'agui',
      messages: [],
      decisions: [{ interruptId: pending!.id, status: 'resolved', payload: { approved: true } }],
    });
    await resumed.done;
    expect(await userTexts(store)).toEqual(['close ticket T-7', 'Reminder: follow up']);
    expect(await store.listQueue('s1')).toEqual([]);
  });

  it('a timer whose messages are in already (a crash before it was marked) fires without adding them twice', async () => {
    const store = createMemoryStore();
    await turn(store, 'hello');
    const { timer } = await store.scheduleTimer({ sessionId: 's1', key: 'k', fireAt: later(-1), messages: [userMessage('Reminder: once')] });
    const crashed = await appendToSession({ agent: support(), store, sessionId: 's1', ownerId: 'o1' }, timer.messages);
    await crashed!.done;
    const head = (await store.getSession('s1'))!.headSeq;
    expect(await fireDueTimers(store, findAgent)).toMatchObject({ fired: 1 });
    expect((await store.getSession('s1'))!.headSeq).toBe(head);
    expect(await userTexts(store)).toEqual(['hello', 'Reminder: once']);
  });
});
