// The store's conformance suite on what is kept beside the log for a session's turns (docs/turn-control.md):
// timers, steers and the queue.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConcurrentAppendError, LimitReachedError, UnseenGuidanceError, type EventStore } from '../types';
import { openSession, sleep, steps, type ConformanceStores } from './support';

export function describeQueueSteersTimers({ store, otherInstance }: ConformanceStores): void {
  const newSession = (ownerId?: string, agent?: string) => openSession(store, ownerId, agent);

  describe('timers', () => {
    it('one timer per (session, key), even scheduled on two instances at once; due once its time comes; fired once', async () => {
      const { id } = await newSession();
      const soon = new Date(Date.now() + 60_000);
      const message = { id: 'm', role: 'user' as const, content: 'Reminder: check inv_7' };
      const scheduled = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? otherInstance : store).scheduleTimer({ sessionId: id, key: 'remind:1', fireAt: soon, messages: [message] }),
        ),
      );
      const ids = new Set(scheduled.map(({ timer }) => timer.id));
      expect(ids.size).toBe(1);
      expect(scheduled.filter(({ created }) => created)).toHaveLength(1);
      const [timer] = scheduled.map(({ timer }) => timer);
      expect(timer).toMatchObject({
        sessionId: id,
        key: 'remind:1',
        firedAt: null,
        messages: [{ id: `${timer!.id}.0`, role: 'user', content: 'Reminder: check inv_7' }],
      });

      expect(await otherInstance.findTimer(id, 'remind:1')).toEqual(timer);
      expect(await store.findTimer(id, 'remind:2')).toBeNull();
      expect(await otherInstance.countPendingTimers(id)).toBe(1);

      expect((await store.dueTimers(new Date())).map((due) => due.id)).not.toContain(timer!.id);
      const due = await store.dueTimers(new Date(soon.getTime() + 1));
      expect(due.map((t) => t.id)).toContain(timer!.id);

      const marks = await Promise.all([store.markTimerFired(timer!.id, new Date()), otherInstance.markTimerFired(timer!.id, new Date())]);
      expect(marks.filter(Boolean)).toHaveLength(1);
      expect((await store.dueTimers(new Date(soon.getTime() + 1))).map((t) => t.id)).not.toContain(timer!.id);
      // A fired timer no longer counts against the session's limit (docs/turn-control.md, "Timers").
      expect(await store.countPendingTimers(id)).toBe(0);
    });

    it('refuses a timer for a session that does not exist', async () => {
      await expect(store.scheduleTimer({ sessionId: randomUUID(), key: 'k', fireAt: new Date(), messages: [] })).rejects.toThrow();
    });
  });

  describe('steers', () => {
    it('kept per run in order, the same message id once, seen from another instance', async () => {
      const { id } = await newSession();
      const runId = randomUUID();
      const say = (messageId: string, content: string) => ({ id: messageId, role: 'user' as const, content });
      await store.addSteer({ sessionId: id, runId, message: say('s1', 'first') });
      await sleep(5);
      await otherInstance.addSteer({ sessionId: id, runId, message: say('s2', 'second') });
      const again = await store.addSteer({ sessionId: id, runId, message: say('s1', 'first, resent') });
      expect(again.message).toEqual(say('s1', 'first'));
      expect((await otherInstance.listSteers(id, runId)).map((steer) => steer.message.content)).toEqual(['first', 'second']);
      expect(await store.listSteers(id, randomUUID())).toEqual([]);
      await expect(store.addSteer({ sessionId: randomUUID(), runId, message: say('s3', 'x') })).rejects.toThrow();
    });

    it("an append unless guidance is refused, writing nothing, while its run has a steer it has not seen; another run's steer, a seen one, or a new session's none do not refuse it", async () => {
      const { id } = await newSession();
      const [runId, resumedRunId] = [randomUUID(), randomUUID()];
      const say = (messageId: string) => ({ id: messageId, role: 'user' as const, content: messageId });
      // No steer yet, and another run's steer does not count.
      await otherInstance.addSteer({ sessionId: id, runId: randomUUID(), message: say('theirs') });
      expect(await store.append(id, 0, steps(1), { status: 'running', unlessGuidance: { runIds: [runId], seen: [] } })).toMatchObject({ headSeq: 1 });

      const steer = await otherInstance.addSteer({ sessionId: id, runId, message: say('s1') });
      for (const on of [store, otherInstance]) {
        const refused = on.append(id, 1, steps(1), { status: 'idle', leaseUntil: null, unlessGuidance: { runIds: [runId], seen: [] } });
        await expect(refused).rejects.toSatisfy(UnseenGuidanceError.is);
      }
      expect((await store.getSession(id))!).toMatchObject({ headSeq: 1, status: 'running' });
      expect(await store.readEvents(id)).toHaveLength(1);
      // Seen: it no longer refuses. A head that moved is a lost race, guidance or not.
      expect(await store.append(id, 1, steps(1), { unlessGuidance: { runIds: [runId], seen: [steer.id] } })).toMatchObject({ headSeq: 2 });
      await expect(store.append(id, 1, steps(1), { unlessGuidance: { runIds: [runId], seen: [] } })).rejects.toSatisfy(ConcurrentAppendError.is);
      // The paused run a run continues counts too, when named.
      await store.addSteer({ sessionId: id, runId: resumedRunId, message: say('s2') });
      await expect(store.append(id, 2, steps(1), { unlessGuidance: { runIds: [resumedRunId, runId], seen: [steer.id] } })).rejects.toSatisfy(
        UnseenGuidanceError.is,
      );
      // A session the append creates has no guidance.
      const created = randomUUID();
      const first = await store.append(created, 0, steps(1), { create: { ownerId: 'o', agent: 'assistant' }, unlessGuidance: { runIds: [runId], seen: [] } });
      expect(first).toMatchObject({ headSeq: 1 });
    });
  });

  describe('queue', () => {
    it('in order, a message once, edits, moves, send-now and removal seen from another instance', async () => {
      const { id } = await newSession();
      const say = (messageId: string, content: string) => ({ id: messageId, role: 'user' as const, content });
      const [first] = await store.enqueue({ sessionId: id, entries: [{ message: say('q1', 'first'), runId: 'r1' }], source: 'agui' });
      const concurrent = (
        await Promise.all([
          otherInstance.enqueue({ sessionId: id, entries: [{ message: say('q2', 'second'), runId: 'r2' }], source: 'agui' }),
          store.enqueue({ sessionId: id, entries: [{ message: say('q2', 'second, resent'), runId: 'r2b' }], source: 'agui' }),
        ])
      ).flat();
      // Whichever of the two won, both callers get the one record.
      expect(new Set(concurrent.map((item) => item.runId)).size).toBe(1);
      const second = concurrent[0]!.message.content;
      await store.enqueue({ sessionId: id, entries: [{ message: say('q3', 'third'), runId: 'r3' }], source: 'openai' });
      expect((await otherInstance.listQueue(id)).map((item) => item.message.content)).toEqual(['first', second, 'third']);

      expect(await store.updateQueued(id, 'q1', { content: 'first, edited' })).toMatchObject({
        message: say('q1', 'first, edited'),
        runId: 'r1',
        sendNow: false,
      });
      await otherInstance.updateQueued(id, 'q3', { position: first!.position - 1, sendNow: true });
      const queue = await store.listQueue(id);
      expect(queue.map((item) => [item.message.content, item.sendNow])).toEqual([
        ['third', true],
        ['first, edited', false],
        [second, false],
      ]);
      expect(await store.updateQueued(id, 'nope', { content: 'x' })).toBeNull();

      expect(await otherInstance.removeQueued(id, 'q2')).toBe(true);
      expect(await store.removeQueued(id, 'q2')).toBe(false);
      expect((await store.listQueue(id)).map((item) => item.message.id)).toEqual(['q3', 'q1']);
      expect(await store.listQueue(randomUUID())).toEqual([]);
      await expect(store.enqueue({ sessionId: randomUUID(), entries: [{ message: say('q4', 'x'), runId: 'r4' }], source: 'agui' })).rejects.toThrow();
    });
  });

  describe('limits, counted and written as one step (docs/security.md, "What a request may carry")', () => {
    const say = (messageId: string) => ({ id: messageId, role: 'user' as const, content: `message ${messageId}` });
    const AT_ONCE = 200;
    const LIMIT = 32;
    /** AT_ONCE writes at the same moment, every other one through the second instance (another process's pool). */
    async function atOnce<T>(write: (on: EventStore, i: number) => Promise<T>) {
      const settled = await Promise.allSettled(Array.from({ length: AT_ONCE }, (_, i) => write(i % 2 ? otherInstance : store, i)));
      const refused = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
      expect(refused.filter((reason) => !LimitReachedError.is(reason))).toEqual([]);
      return { accepted: settled.filter((result) => result.status === 'fulfilled').length, refused: refused as LimitReachedError[] };
    }

    it(`${AT_ONCE} queue adds at once on a queue of ${LIMIT}: exactly ${LIMIT} queued, every other one refused with nothing written`, async () => {
      const { id } = await newSession();
      const { accepted, refused } = await atOnce((on, i) =>
        on.enqueue({ sessionId: id, entries: [{ message: say(`q${i}`), runId: `r${i}` }], source: 'agui', limit: LIMIT }),
      );
      expect(accepted).toBe(LIMIT);
      expect(refused).toHaveLength(AT_ONCE - LIMIT);
      expect(refused.every((reason) => reason.limit === LIMIT && reason.held === LIMIT)).toBe(true);
      expect(await store.listQueue(id)).toHaveLength(LIMIT);
    });

    it('a batch is queued all or none; a message queued already is not counted again', async () => {
      const { id } = await newSession();
      const entries = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ message: say(`b${from + i}`), runId: `r${from + i}` }));
      await store.enqueue({ sessionId: id, entries: entries(0, 3), source: 'agui', limit: 4 });
      await expect(otherInstance.enqueue({ sessionId: id, entries: entries(3, 2), source: 'agui', limit: 4 })).rejects.toSatisfy(LimitReachedError.is);
      expect((await store.listQueue(id)).map((item) => item.message.id)).toEqual(['b0', 'b1', 'b2']);
      const queued = await otherInstance.enqueue({ sessionId: id, entries: entries(2, 2), source: 'agui', limit: 4 });
      expect(queued.map((item) => [item.message.id, item.runId])).toEqual([
        ['b2', 'r2'],
        ['b3', 'r3'],
      ]);
      expect((await store.listQueue(id)).map((item) => item.message.id)).toEqual(['b0', 'b1', 'b2', 'b3']);
    });

    it(`${AT_ONCE} steers at once for a run that takes ${LIMIT}: exactly ${LIMIT} kept; a resend of one kept is no new one`, async () => {
      const { id } = await newSession();
      const runId = randomUUID();
      const { accepted, refused } = await atOnce((on, i) => on.addSteer({ sessionId: id, runId, message: say(`s${i}`), limit: LIMIT }));
      expect(accepted).toBe(LIMIT);
      expect(refused).toHaveLength(AT_ONCE - LIMIT);
      const kept = await store.listSteers(id, runId);
      expect(kept).toHaveLength(LIMIT);
      expect(await otherInstance.addSteer({ sessionId: id, runId, message: say(kept[0]!.message.id), limit: LIMIT })).toEqual(kept[0]);
    });

    it(`${AT_ONCE} timers at once on a session that may have ${LIMIT} waiting: exactly ${LIMIT} scheduled; a known key answers its timer`, async () => {
      const { id } = await newSession();
      const fireAt = new Date(Date.now() + 3_600_000);
      const { accepted, refused } = await atOnce((on, i) => on.scheduleTimer({ sessionId: id, key: `k${i}`, fireAt, messages: [say('m')], limit: LIMIT }));
      expect(accepted).toBe(LIMIT);
      expect(refused).toHaveLength(AT_ONCE - LIMIT);
      expect(await store.countPendingTimers(id)).toBe(LIMIT);
      const [scheduled] = (await store.dueTimers(new Date(fireAt.getTime() + 1), { limit: 1000 })).filter((timer) => timer.sessionId === id);
      expect(await otherInstance.scheduleTimer({ sessionId: id, key: scheduled!.key, fireAt, messages: [], limit: LIMIT })).toMatchObject({
        created: false,
        timer: { id: scheduled!.id },
      });
    });
  });
}
