// The store's conformance suite on watching: who hears a session change — an append or a stop, made through
// this store or another one on the same database (another server process) — and who does not.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANY_SESSION } from '../session-watch';
import { ConcurrentAppendError, type EventStore } from '../types';
import { counter, openSession, QUIET_MS, sleep, steps, waitFor, WAKE_MS, type ConformanceStores } from './support';

/** makeStore: opens a new store on the suite's database (one more server process, as it were). */
export function describeWatch({ store, otherInstance }: ConformanceStores, makeStore: () => Promise<EventStore>): void {
  const newSession = () => openSession(store);

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
        // Another process's write: the notification does not say what it was.
        await otherInstance.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
        await waitFor(() => changes.length >= 3, "a call after the other store's stop");
        expect(changes.slice(2).every((change) => change === 'any')).toBe(true);
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
        await otherInstance.append(b.id, 0, steps(1));
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
      const stops = [store.watch(session.id, here.listener), otherInstance.watch(session.id, there.listener)];
      try {
        // The last good write is heard first (on Postgres its NOTIFY reaches the other instance a little later).
        await store.append(session.id, 0, steps(1));
        await waitFor(() => here.calls >= 1 && there.calls >= 1, 'the good write');
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
        await expect(store.append(session.id, 0, steps(1))).resolves.toEqual({ headSeq: 1, at: expect.any(String) });
        await waitFor(() => heard.calls >= 1, 'the good watcher');
      } finally {
        for (const stop of stops) stop();
        console.error = errors;
      }
    });

    it('a change through another instance (another server process) wakes this one within 2 s', async () => {
      const session = await newSession();
      const heard = counter();
      const unsubscribe = store.watch(session.id, heard.listener);
      try {
        const started = Date.now();
        await otherInstance.append(session.id, 0, steps(1));
        await waitFor(() => heard.calls >= 1, 'a wake-up from the other instance', WAKE_MS);
        expect(Date.now() - started).toBeLessThan(WAKE_MS);

        const beforeStop = heard.calls;
        await otherInstance.requestStop({ sessionId: session.id, runId: randomUUID(), by: { source: 'agui' } });
        await waitFor(() => heard.calls > beforeStop, 'a wake-up for the stop', WAKE_MS);
      } finally {
        unsubscribe();
      }
    });

    it('the other direction too, and only for the watched session', async () => {
      const [watched, other] = [await newSession(), await newSession()];
      const onWatched = counter();
      const onOther = counter();
      const stops = [otherInstance.watch(watched.id, onWatched.listener), otherInstance.watch(other.id, onOther.listener)];
      try {
        await store.append(watched.id, 0, steps(1));
        await waitFor(() => onWatched.calls >= 1, 'a wake-up on the other instance', WAKE_MS);
        await sleep(QUIET_MS);
        expect(onOther.calls).toBe(0);
      } finally {
        for (const stop of stops) stop();
      }
    });

    it('after close, a store calls its watchers no more, nor those watching after it closed', async () => {
      const closing = await makeStore();
      const session = await newSession();
      const heard = counter();
      closing.watch(session.id, heard.listener);
      await closing.close();
      const unsubscribe = closing.watch(session.id, heard.listener);
      expect(typeof unsubscribe).toBe('function');
      await store.append(session.id, 0, steps(1));
      await sleep(QUIET_MS);
      expect(heard.calls).toBe(0);
      unsubscribe();
    });
  });
}
