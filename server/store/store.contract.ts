// What every EventStore backend promises, as one vitest suite each backend runs
// (sqlite.test.ts, postgres.test.ts). Ids are random so runs and suites never collide.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../events';
import { ANY_SESSION } from './session-watch';
import { ConcurrentAppendError, type EventStore } from './types';

/**
 * makeStore opens a NEW store on the same database each time it is called: the suite uses a
 * second one to play a second server instance (its own connection or pool).
 */
export function describeEventStoreContract(name: string, makeStore: () => Promise<EventStore>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let otherInstance: EventStore;

    beforeAll(async () => {
      store = await makeStore();
      otherInstance = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
      await otherInstance?.close();
    });

    const newSession = (ownerId = `owner-${randomUUID()}`, agent = 'assistant') =>
      store.ensureSession({ id: randomUUID(), ownerId, agent });

    describe('ensureSession', () => {
      it('creates an idle, empty session', async () => {
        const ownerId = `owner-${randomUUID()}`;
        const session = await newSession(ownerId, 'researcher');
        expect(session).toMatchObject({ ownerId, agent: 'researcher', title: null, headSeq: 0, status: 'idle', leaseUntil: null });
        expect(session.createdAt).toBeInstanceOf(Date);
        expect(session.updatedAt).toBeInstanceOf(Date);
        expect(await store.getSession(session.id)).toEqual(session);
      });

      it('returns the existing row, whoever asks', async () => {
        const first = await newSession();
        const again = await store.ensureSession({ id: first.id, ownerId: 'someone-else', agent: 'other' });
        expect(again).toEqual(first);
      });

      it('is race-safe: concurrent callers on two instances all get the one row', async () => {
        const id = randomUUID();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? otherInstance : store).ensureSession({ id, ownerId: `owner-${i}`, agent: 'assistant' }),
          ),
        );
        for (const result of results) expect(result).toEqual(results[0]);
        expect((await store.listSessions(results[0].ownerId)).filter((s) => s.id === id)).toHaveLength(1);
      });

      it('getSession answers null for an unknown id', async () => {
        expect(await store.getSession(randomUUID())).toBeNull();
      });
    });

    describe('append with create', () => {
      it("creates a new thread's session in the append itself: one winner among racing first writes, and no row when the write fails", async () => {
        const id = randomUUID();
        const ownerId = `owner-${randomUUID()}`;
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? otherInstance : store).append(id, 0, sampleEvents(), { title: `t${i}`, status: 'idle', create: { ownerId, agent: 'assistant' } })),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        for (const result of results) if (result.status === 'rejected') expect(ConcurrentAppendError.is(result.reason)).toBe(true);
        expect(await store.getSession(id)).toMatchObject({ ownerId, agent: 'assistant', headSeq: sampleEvents().length });
        expect(await store.readEvents(id)).toHaveLength(sampleEvents().length);

        // A first write that is refused leaves no empty session behind.
        const failed = randomUUID();
        await expect(store.append(failed, 5, sampleEvents(), { create: { ownerId, agent: 'assistant' } })).rejects.toThrow();
        expect(await store.getSession(failed)).toBeNull();
      });
    });

    describe('append and readEvents', () => {
      it('round-trips events in order, with their append time', async () => {
        const session = await newSession();
        const events = sampleEvents();
        const before = Date.now();
        const { headSeq } = await store.append(session.id, 0, events);
        const after = Date.now();
        expect(headSeq).toBe(events.length);

        const stored = await store.readEvents(session.id);
        expect(stored.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(stored.map((e) => e.event)).toEqual(events);
        for (const { at } of stored) {
          expect(new Date(at).toISOString()).toBe(at);
          expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
          expect(Date.parse(at)).toBeLessThanOrEqual(after);
        }

        await sleep(5);
        await store.append(session.id, headSeq, [{ type: 'step_finished', stepName: 'later' }]);
        const all = await store.readEvents(session.id);
        expect(all).toHaveLength(events.length + 1);
        expect(Date.parse(all.at(-1)!.at)).toBeGreaterThan(Date.parse(all[0].at));
        expect((await store.getSession(session.id))?.headSeq).toBe(events.length + 1);
      });

      it('readEvents(afterSeq) returns only the later events', async () => {
        const session = await newSession();
        await store.append(session.id, 0, steps(5));
        expect((await store.readEvents(session.id, 3)).map((e) => e.seq)).toEqual([4, 5]);
        expect(await store.readEvents(session.id, 5)).toEqual([]);
        expect((await store.readEvents(session.id, 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
        expect(await store.readEvents(randomUUID())).toEqual([]);
      });

      it('rejects a stale expectedSeq with ConcurrentAppendError and writes nothing', async () => {
        const session = await newSession();
        await store.append(session.id, 0, steps(2));

        const stale = store.append(session.id, 1, steps(1, 'stale'));
        await expect(stale).rejects.toBeInstanceOf(ConcurrentAppendError);
        await expect(stale).rejects.toMatchObject({ code: 'session_busy', sessionId: session.id, expectedSeq: 1 });
        // A head from the future is as wrong as one from the past, and must not leave a gap.
        await expect(store.append(session.id, 7, steps(1, 'ahead'))).rejects.toBeInstanceOf(ConcurrentAppendError);

        expect((await store.readEvents(session.id)).map((e) => e.event)).toEqual(steps(2));
        expect((await store.getSession(session.id))?.headSeq).toBe(2);
      });

      it('20 concurrent appenders at one head (across two instances): exactly one wins', async () => {
        const session = await newSession();
        await store.append(session.id, 0, steps(1, 'seed'));
        const writers = Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? otherInstance : store).append(session.id, 1, steps(3, `writer-${i}`), { status: 'running' }),
        );
        const results = await Promise.allSettled(writers);

        const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
        const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(19);
        for (const loser of losers) expect(loser.reason).toBeInstanceOf(ConcurrentAppendError);

        const events = await store.readEvents(session.id);
        expect(events.map((e) => e.event)).toEqual([...steps(1, 'seed'), ...steps(3, `writer-${winners[0]}`)]);
        expect(await store.getSession(session.id)).toMatchObject({ headSeq: 4, status: 'running' });
      });

      it('rejects an append to a session that does not exist, writing nothing', async () => {
        const id = randomUUID();
        await expect(store.append(id, 0, steps(1))).rejects.toThrow();
        expect(await store.readEvents(id)).toEqual([]);
        expect(await store.getSession(id)).toBeNull();
      });
    });

    describe('session columns', () => {
      it('append sets status, lease and title, and leaves what it is not given', async () => {
        const session = await newSession();
        const lease = new Date(Date.now() + 30_000);
        await sleep(5);
        await store.append(session.id, 0, steps(1), { status: 'running', leaseUntil: lease, title: 'Plan a trip' });
        const running = await store.getSession(session.id);
        expect(running).toMatchObject({ status: 'running', leaseUntil: lease, title: 'Plan a trip', headSeq: 1 });
        expect(running!.updatedAt.getTime()).toBeGreaterThan(session.updatedAt.getTime());
        expect(running!.createdAt).toEqual(session.createdAt);

        await store.append(session.id, 1, steps(1));
        expect(await store.getSession(session.id)).toMatchObject({ status: 'running', leaseUntil: lease, title: 'Plan a trip', headSeq: 2 });

        await store.append(session.id, 2, steps(1), { status: 'interrupted', leaseUntil: null });
        expect(await store.getSession(session.id)).toMatchObject({ status: 'interrupted', leaseUntil: null, title: 'Plan a trip', headSeq: 3 });
      });

      it('a name with a NUL in it (which PostgreSQL text cannot hold) finds nothing, on every store', async () => {
        const session = await newSession();
        const bad = `${session.id}\u0000`;
        expect(await store.getSession(bad)).toBeNull();
        expect(await store.readEvents(bad)).toEqual([]);
        expect(await store.findInterrupt('int_\u0000')).toBeNull();
        expect(await store.findStop(session.id, 'run\u0000')).toBeNull();
        expect(await store.findStop(bad, 'run')).toBeNull();
        expect(await store.listQueue(bad)).toEqual([]);
        expect(await store.listSteers(session.id, 'run\u0000')).toEqual([]);
        expect(await store.listSessions(session.ownerId, { agent: 'assistant\u0000' })).toEqual([]);
        expect(await store.listSessions('owner\u0000')).toEqual([]);
      });

      it('an append of no events is still compare-and-set, and updates the columns', async () => {
        const session = await newSession();
        await store.append(session.id, 0, steps(2));
        await expect(store.append(session.id, 0, [], { status: 'error' })).rejects.toBeInstanceOf(ConcurrentAppendError);
        expect(await store.append(session.id, 2, [], { status: 'error' })).toEqual({ headSeq: 2 });
        expect(await store.getSession(session.id)).toMatchObject({ status: 'error', headSeq: 2 });
      });

      it('renewLease extends the lease only while the head is unchanged', async () => {
        const session = await newSession();
        const first = new Date(Date.now() + 10_000);
        await store.append(session.id, 0, steps(1), { status: 'running', leaseUntil: first });

        const later = new Date(Date.now() + 60_000);
        expect(await store.renewLease(session.id, 1, later)).toBe(true);
        expect((await store.getSession(session.id))?.leaseUntil).toEqual(later);

        expect(await store.renewLease(session.id, 0, new Date(Date.now() + 120_000))).toBe(false);
        expect(await store.renewLease(randomUUID(), 0, later)).toBe(false);
        expect(await store.getSession(session.id)).toMatchObject({ leaseUntil: later, headSeq: 1 });
      });
    });

    describe('listSessions', () => {
      it("lists only the owner's sessions, most recently updated first", async () => {
        const owner = `owner-${randomUUID()}`;
        const a = await newSession(owner);
        await sleep(5);
        const b = await newSession(owner, 'researcher');
        await sleep(5);
        const c = await newSession(owner);
        await newSession(); // someone else's
        expect((await store.listSessions(owner)).map((s) => s.id)).toEqual([c.id, b.id, a.id]);

        await sleep(5);
        await store.append(a.id, 0, steps(1)); // a is now the most recent
        expect((await store.listSessions(owner)).map((s) => s.id)).toEqual([a.id, c.id, b.id]);
        expect((await store.listSessions(owner, { limit: 2 })).map((s) => s.id)).toEqual([a.id, c.id]);
        expect((await store.listSessions(owner, { agent: 'researcher' })).map((s) => s.id)).toEqual([b.id]);
        expect(await store.listSessions(`owner-${randomUUID()}`)).toEqual([]);
      });
    });

    describe('timers', () => {
      it('one timer per (session, key), even scheduled on two instances at once; due once its time comes; fired once', async () => {
        const { id } = await newSession();
        const soon = new Date(Date.now() + 60_000);
        const message = { id: 'm', role: 'user' as const, content: 'Reminder: check ord_42' };
        const scheduled = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? otherInstance : store).scheduleTimer({ sessionId: id, key: 'remind:1', fireAt: soon, messages: [message] })),
        );
        const ids = new Set(scheduled.map(({ timer }) => timer.id));
        expect(ids.size).toBe(1);
        expect(scheduled.filter(({ created }) => created)).toHaveLength(1);
        const [timer] = scheduled.map(({ timer }) => timer);
        expect(timer).toMatchObject({ sessionId: id, key: 'remind:1', firedAt: null, messages: [{ id: `${timer!.id}.0`, role: 'user', content: 'Reminder: check ord_42' }] });

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

      it('steers: kept per run in order, the same message id once, seen from another instance', async () => {
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

      it('the queue: in order, a message once, edits, moves, send-now and removal seen from another instance', async () => {
        const { id } = await newSession();
        const say = (messageId: string, content: string) => ({ id: messageId, role: 'user' as const, content });
        const first = await store.enqueue({ sessionId: id, message: say('q1', 'first'), runId: 'r1', source: 'agui' });
        const concurrent = await Promise.all([otherInstance.enqueue({ sessionId: id, message: say('q2', 'second'), runId: 'r2', source: 'agui' }), store.enqueue({ sessionId: id, message: say('q2', 'second, resent'), runId: 'r2b', source: 'agui' })]);
        // Whichever of the two won, both callers get the one record.
        expect(new Set(concurrent.map((item) => item.runId)).size).toBe(1);
        const second = concurrent[0]!.message.content;
        await store.enqueue({ sessionId: id, message: say('q3', 'third'), runId: 'r3', source: 'openai' });
        expect((await otherInstance.listQueue(id)).map((item) => item.message.content)).toEqual(['first', second, 'third']);

        expect(await store.updateQueued(id, 'q1', { content: 'first, edited' })).toMatchObject({ message: say('q1', 'first, edited'), runId: 'r1', sendNow: false });
        await otherInstance.updateQueued(id, 'q3', { position: first.position - 1, sendNow: true });
        const queue = await store.listQueue(id);
        expect(queue.map((item) => [item.message.content, item.sendNow])).toEqual([['third', true], ['first, edited', false], [second, false]]);
        expect(await store.updateQueued(id, 'nope', { content: 'x' })).toBeNull();

        expect(await otherInstance.removeQueued(id, 'q2')).toBe(true);
        expect(await store.removeQueued(id, 'q2')).toBe(false);
        expect((await store.listQueue(id)).map((item) => item.message.id)).toEqual(['q3', 'q1']);
        expect(await store.listQueue(randomUUID())).toEqual([]);
        await expect(store.enqueue({ sessionId: randomUUID(), message: say('q4', 'x'), runId: 'r4', source: 'agui' })).rejects.toThrow();
      });

      it('an idle session with queued messages is listed for recovery; a running one is not', async () => {
        const { id } = await newSession();
        await store.enqueue({ sessionId: id, message: { id: 'q1', role: 'user', content: 'later' }, runId: 'r1', source: 'agui' });
        expect(await store.listRecoverable(new Date())).toContain(id);
        await store.append(id, 0, [{ type: 'run_started', runId: 'r0', source: 'agui', inputs: 0 }], { status: 'running', leaseUntil: new Date(Date.now() + 60_000) });
        expect(await store.listRecoverable(new Date())).not.toContain(id);
      });

      it('refuses a timer for a session that does not exist', async () => {
        await expect(store.scheduleTimer({ sessionId: randomUUID(), key: 'k', fireAt: new Date(), messages: [] })).rejects.toThrow();
      });
    });
  });

  describeStopAndWatchContract(name, makeStore, { sameDatabase: true });
}

/** How long a watcher may take to hear a change (another process's comes through the database). */
const WAKE_MS = 2_000;
/** How long to go on listening for calls that must not come (an echo of NOTIFY takes ~ms). */
const QUIET_MS = 300;

/**
 * Stops and watching. With sameDatabase, makeStore's second store sees the first one's data
 * (another server process, as far as the store can tell); the in-memory store has no such twin.
 */
export function describeStopAndWatchContract(name: string, makeStore: () => Promise<EventStore>, options: { sameDatabase: boolean }): void {
  describe(`EventStore contract: ${name}: stops and watch`, () => {
    let store: EventStore;
    let otherInstance: EventStore | undefined;

    beforeAll(async () => {
      store = await makeStore();
      if (options.sameDatabase) {
        otherInstance = await makeStore();
        // A watcher's first call may be a resync (e.g. when a LISTEN connection comes up);
        // get those out of the way, so that every call below is about the change it follows.
        await heardAcross(store, otherInstance);
        await heardAcross(otherInstance, store);
      }
    }, 30_000);
    afterAll(async () => {
      await store?.close();
      await otherInstance?.close();
    });

    const newSession = () => store.ensureSession({ id: randomUUID(), ownerId: `owner-${randomUUID()}`, agent: 'assistant' });

    describe('requestStop and findStop', () => {
      it('records the first stop of a run; a repeat returns it unchanged, and the head does not move', async () => {
        const session = await newSession();
        await store.append(session.id, 0, steps(2), { status: 'running' });
        const runId = randomUUID();
        const before = Date.now();

        const first = await store.requestStop({ sessionId: session.id, runId, frontier: 'cursor-2', by: { source: 'agui', ownerId: session.ownerId } });
        expect(first).toEqual({ sessionId: session.id, runId, frontier: 'cursor-2', by: { source: 'agui', ownerId: session.ownerId }, requestedAt: expect.any(Date) });
        expect(first.requestedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
        expect(first.requestedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1);

        await sleep(5);
        const again = await store.requestStop({ sessionId: session.id, runId, frontier: 'cursor-9', by: { source: 'cli' } });
        expect(again).toEqual(first);
        expect(await store.findStop(session.id, runId)).toEqual(first);
        if (otherInstance) expect(await otherInstance.findStop(session.id, runId)).toEqual(first);

        // Not an event: the log and its head are as they were.
        expect((await store.readEvents(session.id)).map((e) => e.event)).toEqual(steps(2));
        expect(await store.getSession(session.id)).toMatchObject({ headSeq: 2, status: 'running' });
      });

      it('keeps a missing frontier as null and only the documented keys of `by`', async () => {
        const session = await newSession();
        const runId = randomUUID();
        const by = { source: 'openai', extra: 'not kept' } as { source: string };
        const stop = await store.requestStop({ sessionId: session.id, runId, by });
        expect(stop.frontier).toBeNull();
        expect(stop.by).toEqual({ source: 'openai' });
        expect(await store.findStop(session.id, runId)).toEqual(stop);
      });

      it('20 concurrent stops of one run all return the same, first record', async () => {
        const session = await newSession();
        const runId = randomUUID();
        const stores = otherInstance ? [store, otherInstance] : [store];
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % stores.length].requestStop({ sessionId: session.id, runId, frontier: `frontier-${i}`, by: { source: `caller-${i}` } }),
          ),
        );
        const winner = results[0];
        expect(winner.frontier).toMatch(/^frontier-\d+$/);
        expect(winner.by).toEqual({ source: `caller-${winner.frontier!.slice('frontier-'.length)}` });
        for (const result of results) expect(result).toEqual(winner);
        expect(await store.findStop(session.id, runId)).toEqual(winner);
      });

      it('findStop answers null for an unknown run; a stop of another run is not it', async () => {
        const session = await newSession();
        await store.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
        expect(await store.findStop(session.id, randomUUID())).toBeNull();
      });

      it("a run id names a run within its session: a stop or a steer of one session's run never reaches another's run of the same id", async () => {
        const mine = await newSession();
        const theirs = await newSession();
        const runId = `run-${randomUUID()}`;
        const stop = await store.requestStop({ sessionId: mine.id, runId, frontier: 'mine', by: { source: 'agui' } });
        expect(await store.findStop(theirs.id, runId)).toBeNull();
        // Their own stop of their run is theirs, not the first one's.
        const their = await store.requestStop({ sessionId: theirs.id, runId, frontier: 'theirs', by: { source: 'cli' } });
        expect(their).toMatchObject({ sessionId: theirs.id, frontier: 'theirs' });
        expect(await store.findStop(mine.id, runId)).toEqual(stop);

        const say = (content: string) => ({ id: 'same-id', role: 'user' as const, content });
        await store.addSteer({ sessionId: mine.id, runId, message: say('mine') });
        expect(await store.listSteers(theirs.id, runId)).toEqual([]);
        const theirSteer = await store.addSteer({ sessionId: theirs.id, runId, message: say('theirs') });
        expect(theirSteer).toMatchObject({ sessionId: theirs.id, message: { content: 'theirs' } });
        expect((await store.listSteers(mine.id, runId)).map((steer) => steer.message.content)).toEqual(['mine']);
      });

      it('refuses a stop on a session that does not exist, recording nothing', async () => {
        const runId = randomUUID();
        const sessionId = randomUUID();
        await expect(store.requestStop({ sessionId, runId, by: { source: 'agui' } })).rejects.toThrow(/does not exist|No session/);
        expect(await store.findStop(sessionId, runId)).toBeNull();
      });
    });

    describe('watch', () => {
      it('fires after an append and after a stop', async () => {
        const session = await newSession();
        const heard = counter();
        const unsubscribe = store.watch(session.id, heard.listener);
        try {
          await store.append(session.id, 0, steps(1));
          await waitFor(() => heard.calls >= 1, 'a call after append');
          const afterAppend = heard.calls;
          await store.append(session.id, 1, [], { status: 'error' }); // no events, still a change
          await waitFor(() => heard.calls > afterAppend, 'a call after an empty append');
          const beforeStop = heard.calls;
          await store.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
          await waitFor(() => heard.calls > beforeStop, 'a call after requestStop');
        } finally {
          unsubscribe();
        }
      });

      it("tells its own appends ('appended') from a stop and from another store's writes ('any'), so a run need not look for a stop after each of its appends", async () => {
        const session = await newSession();
        const changes: string[] = [];
        const unsubscribe = store.watch(session.id, (_, change) => changes.push(change));
        try {
          await store.append(session.id, 0, steps(1));
          await waitFor(() => changes.length >= 1, 'a call after append');
          expect(changes).toEqual(['appended']);
          await store.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
          await waitFor(() => changes.length >= 2, 'a call after requestStop');
          expect(changes[1]).toBe('any');
          if (otherInstance) {
            // Another process's write: the notification does not say what it was.
            await otherInstance.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
            await waitFor(() => changes.length >= 3, "a call after the other store's stop");
            expect(changes.slice(2).every((change) => change === 'any')).toBe(true);
          }
        } finally {
          unsubscribe();
        }
      });

      it('a watcher of every session hears each change with its session, from this store and another', async () => {
        const [a, b] = [await newSession(), await newSession()];
        const heard: string[] = [];
        const unsubscribe = store.watch(ANY_SESSION, (sessionId) => heard.push(sessionId));
        try {
          await store.append(a.id, 0, steps(1));
          await (otherInstance ?? store).append(b.id, 0, steps(1));
          await waitFor(() => heard.includes(a.id) && heard.includes(b.id), 'both sessions heard');
        } finally {
          unsubscribe();
        }
      });

      it("hears this store's own change once, not once per path", async () => {
        const session = await newSession();
        const heard = counter();
        const unsubscribe = store.watch(session.id, heard.listener);
        try {
          await store.append(session.id, 0, steps(1));
          await waitFor(() => heard.calls >= 1, 'a call after append');
          await sleep(QUIET_MS);
          expect(heard.calls).toBe(1);
        } finally {
          unsubscribe();
        }
      });

      it('is not called for other sessions, nor after unsubscribing', async () => {
        const [watched, other] = [await newSession(), await newSession()];
        const onOther = counter();
        const onWatched = counter();
        const unsubscribed = counter();
        const stops = [store.watch(other.id, onOther.listener), store.watch(watched.id, onWatched.listener)];
        const unsubscribe = store.watch(watched.id, unsubscribed.listener);
        const again = store.watch(watched.id, unsubscribed.listener); // the same function twice: two subscriptions
        try {
          await store.append(watched.id, 0, steps(1));
          await waitFor(() => onWatched.calls >= 1 && unsubscribed.calls >= 2, 'the watchers of the written session');
          await sleep(QUIET_MS);
          expect(onOther.calls).toBe(0);

          unsubscribe();
          unsubscribe(); // idempotent: does not remove the second subscription
          again();
          const [watchedBefore, unsubscribedBefore] = [onWatched.calls, unsubscribed.calls];
          await store.append(watched.id, 1, steps(1));
          await store.requestStop({ sessionId: watched.id, runId: randomUUID(), by: { source: 'agui' } });
          await waitFor(() => onWatched.calls >= watchedBefore + 2, 'the remaining watcher');
          await sleep(QUIET_MS);
          expect(unsubscribed.calls).toBe(unsubscribedBefore);
          expect(onOther.calls).toBe(0);
        } finally {
          for (const stop of stops) stop();
        }
      });

      it('a rejected write wakes nobody', async () => {
        const session = await newSession();
        const here = counter();
        const there = counter();
        const stops = [store.watch(session.id, here.listener), ...(otherInstance ? [otherInstance.watch(session.id, there.listener)] : [])];
        try {
          // The last good write is heard first (on Postgres its NOTIFY reaches the other instance a little later).
          await store.append(session.id, 0, steps(1));
          await waitFor(() => here.calls >= 1 && (!otherInstance || there.calls >= 1), 'the good write');
          await sleep(QUIET_MS);
          here.calls = there.calls = 0;
          await expect(store.append(session.id, 0, steps(1, 'stale'))).rejects.toBeInstanceOf(ConcurrentAppendError);
          await expect(store.append(randomUUID(), 0, steps(1))).rejects.toThrow();
          await sleep(QUIET_MS);
          expect([here.calls, there.calls]).toEqual([0, 0]);
        } finally {
          for (const stop of stops) stop();
        }
      });

      it('a watcher that throws does not fail the write nor silence the others', async () => {
        const session = await newSession();
        const heard = counter();
        const errors = console.error;
        console.error = () => {};
        const stops = [
          store.watch(session.id, () => {
            throw new Error('bad listener');
          }),
          store.watch(session.id, heard.listener),
        ];
        try {
          await expect(store.append(session.id, 0, steps(1))).resolves.toEqual({ headSeq: 1 });
          await waitFor(() => heard.calls >= 1, 'the good watcher');
        } finally {
          for (const stop of stops) stop();
          console.error = errors;
        }
      });

      if (options.sameDatabase) {
        it('a change through another instance (another server process) wakes this one within 2 s', async () => {
          const other = otherInstance!;
          const session = await newSession();
          const heard = counter();
          const unsubscribe = store.watch(session.id, heard.listener);
          try {
            const started = Date.now();
            await other.append(session.id, 0, steps(1));
            await waitFor(() => heard.calls >= 1, 'a wake-up from the other instance', WAKE_MS);
            expect(Date.now() - started).toBeLessThan(WAKE_MS);

            const beforeStop = heard.calls;
            await other.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
            await waitFor(() => heard.calls > beforeStop, 'a wake-up for the stop', WAKE_MS);
          } finally {
            unsubscribe();
          }
        });

        it('the other direction too, and only for the watched session', async () => {
          const [watched, other] = [await newSession(), await newSession()];
          const onWatched = counter();
          const onOther = counter();
          const stops = [otherInstance!.watch(watched.id, onWatched.listener), otherInstance!.watch(other.id, onOther.listener)];
          try {
            await store.append(watched.id, 0, steps(1));
            await waitFor(() => onWatched.calls >= 1, 'a wake-up on the other instance', WAKE_MS);
            await sleep(QUIET_MS);
            expect(onOther.calls).toBe(0);
          } finally {
            for (const stop of stops) stop();
          }
        });
      }

      it('after close, a store calls its watchers no more', async () => {
        const closing = await makeStore();
        const writer = options.sameDatabase ? store : closing;
        const session = await writer.ensureSession({ id: randomUUID(), ownerId: 'owner', agent: 'assistant' });
        const heard = counter();
        closing.watch(session.id, heard.listener);
        await closing.close();
        if (options.sameDatabase) {
          await store.append(session.id, 0, steps(1));
          await sleep(QUIET_MS);
          expect(heard.calls).toBe(0);
        }
        expect(typeof closing.watch(session.id, heard.listener)).toBe('function');
      });
    });
  });
}

/** Waits until `watcher` hears a write made through `writer`: after this its calls follow changes. */
async function heardAcross(watcher: EventStore, writer: EventStore) {
  const session = await writer.ensureSession({ id: randomUUID(), ownerId: `owner-${randomUUID()}`, agent: 'assistant' });
  const heard = counter();
  const unsubscribe = watcher.watch(session.id, heard.listener);
  try {
    await writer.append(session.id, 0, steps(1));
    await waitFor(() => heard.calls >= 1, 'the warm-up wake-up', 20_000);
  } finally {
    unsubscribe();
  }
}

/** A listener that counts its calls. */
export function counter() {
  const state = {
    calls: 0,
    listener: () => {
      state.calls++;
    },
  };
  return state;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = WAKE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(10);
  }
}

function steps(count: number, label = 'step'): SessionEvent[] {
  return Array.from({ length: count }, (_, i) => ({ type: 'step_started', stepName: `${label}-${i}` }));
}

/** One of (nearly) every kind, with the awkward bits: unicode, nesting, nulls, big numbers. */
function sampleEvents(): SessionEvent[] {
  const runId = randomUUID();
  return [
    { type: 'run_started', runId, source: 'agui' },
    { type: 'message_added', message: { id: 'm1', role: 'user', content: 'Grüße — 你好 👋 "quoted" \\ back\nslash' } },
    {
      type: 'assistant_step',
      message: { id: 'm2', role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'search', input: { q: 'x', nested: { list: [1, null, true] } } }] },
      finishReason: 'tool-calls',
      usage: { inputTokens: 1200, outputTokens: 34 },
    },
    { type: 'tool_started', toolCallId: 'call-1', toolName: 'search', attempt: 1 },
    {
      type: 'tool_result',
      message: { id: 'm3', role: 'tool', toolCallId: 'call-1', toolName: 'search', content: '{"hits":2}' },
      output: { hits: 2, big: Number.MAX_SAFE_INTEGER, ratio: 0.1 },
    },
    { type: 'state_patched', patch: [{ op: 'add', path: '/todo/-', value: { title: 'café', done: false } }] },
    { type: 'run_finished', runId, outcome: { type: 'interrupt', interruptIds: ['i-1'] } },
  ];
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
