// The store's conformance suite on sessions and their logs: creating sessions, the compare-and-set append,
// the columns it keeps, and listing an owner's sessions.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../events';
import { ConcurrentAppendError } from '../types';
import { openSession, sampleEvents, sleep, steps, type ConformanceStores } from './support';

export function describeSessionsAndLog({ store, otherInstance }: ConformanceStores): void {
  const newSession = (ownerId?: string, agent?: string) => openSession(store, ownerId, agent);

  describe('ensureSession', () => {
    it('creates an idle, empty session', async () => {
      const ownerId = `owner-${randomUUID()}`;
      const session = await newSession(ownerId, 'analyst');
      expect(session).toMatchObject({ ownerId, agent: 'analyst', title: null, headSeq: 0, status: 'idle', leaseUntil: null });
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
        Array.from({ length: 10 }, (_, i) => (i % 2 ? otherInstance : store).ensureSession({ id, ownerId: `owner-${i}`, agent: 'assistant' })),
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
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? otherInstance : store).append(id, 0, sampleEvents(), { title: `t${i}`, status: 'idle', create: { ownerId, agent: 'assistant' } }),
        ),
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
      const { headSeq, at: appendedAt } = await store.append(session.id, 0, events);
      const after = Date.now();
      expect(headSeq).toBe(events.length);

      const stored = await store.readEvents(session.id);
      expect(stored.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(stored.map((e) => e.event)).toEqual(events);
      for (const { at } of stored) {
        // The time the append answered is the one its events read back with: a run's live parts and their replay agree.
        expect(at).toBe(appendedAt);
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

    it("keeps the bytes of the log's events as JSON, added by each append (created or claimed), and none for a lost race", async () => {
      const bytesOf = (events: SessionEvent[]) => events.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event), 'utf8'), 0);
      const first = sampleEvents();
      const created = randomUUID();
      await store.append(created, 0, first, { create: { ownerId: `owner-${randomUUID()}`, agent: 'assistant' } });
      // Bytes, not characters: the sample holds text outside ASCII, so a store counting characters fails below.
      expect(bytesOf(first)).toBeGreaterThan(first.reduce((sum, event) => sum + JSON.stringify(event).length, 0));
      expect((await otherInstance.getSession(created))!.logBytes).toBe(bytesOf(first));
      const more = steps(3);
      await otherInstance.append(created, first.length, more);
      await expect(store.append(created, first.length, steps(1))).rejects.toBeInstanceOf(ConcurrentAppendError);
      expect((await store.getSession(created))!.logBytes).toBe(bytesOf(first) + bytesOf(more));
      expect((await newSession()).logBytes).toBe(0);
    });

    it('an append of no events is still compare-and-set, and updates the columns', async () => {
      const session = await newSession();
      await store.append(session.id, 0, steps(2));
      await expect(store.append(session.id, 0, [], { status: 'error' })).rejects.toBeInstanceOf(ConcurrentAppendError);
      expect(await store.append(session.id, 2, [], { status: 'error' })).toEqual({ headSeq: 2, at: expect.any(String) });
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
      const b = await newSession(owner, 'analyst');
      await sleep(5);
      const c = await newSession(owner);
      await newSession(); // someone else's
      expect((await store.listSessions(owner)).map((s) => s.id)).toEqual([c.id, b.id, a.id]);

      await sleep(5);
      await store.append(a.id, 0, steps(1)); // a is now the most recent
      expect((await store.listSessions(owner)).map((s) => s.id)).toEqual([a.id, c.id, b.id]);
      expect((await store.listSessions(owner, { limit: 2 })).map((s) => s.id)).toEqual([a.id, c.id]);
      expect((await store.listSessions(owner, { agent: 'analyst' })).map((s) => s.id)).toEqual([b.id]);
      expect(await store.listSessions(`owner-${randomUUID()}`)).toEqual([]);
    });
  });
}
