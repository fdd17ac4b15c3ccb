// The store's conformance suite on stops: a user's request to stop a run, kept beside the log (the head does
// not move), the first one of a run standing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSession, sleep, steps, type ConformanceStores } from './support';

export function describeStops({ store, otherInstance }: ConformanceStores): void {
  const newSession = (ownerId?: string, agent?: string) => openSession(store, ownerId, agent);

  describe('requestStop and findStop', () => {
    it('records the first stop of a run; a repeat returns it unchanged, and the head does not move', async () => {
      const session = await newSession();
      await store.append(session.id, 0, steps(2), { status: 'running' });
      const runId = randomUUID();
      const before = Date.now();

      const first = await store.requestStop({ sessionId: session.id, runId, frontier: 'cursor-2', by: { source: 'agui', ownerId: session.ownerId } });
      expect(first).toEqual({
        sessionId: session.id,
        runId,
        frontier: 'cursor-2',
        by: { source: 'agui', ownerId: session.ownerId },
        requestedAt: expect.any(Date),
      });
      expect(first.requestedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(first.requestedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1);

      await sleep(5);
      const again = await store.requestStop({ sessionId: session.id, runId, frontier: 'cursor-9', by: { source: 'cli' } });
      expect(again).toEqual(first);
      expect(await store.findStop(session.id, runId)).toEqual(first);
      expect(await otherInstance.findStop(session.id, runId)).toEqual(first);

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
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? otherInstance : store).requestStop({ sessionId: session.id, runId, frontier: `frontier-${i}`, by: { source: `caller-${i}` } }),
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
}
