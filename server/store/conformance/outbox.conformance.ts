// The store's conformance suite on the outbox (docs/approvals.md, "Decision webhooks"): the notices an append
// writes with its notable events, fanned out once into deliveries, and the deliveries' attempts,
// claimed so that no two processes send the same one. The database is shared with the other parts,
// so each test reads only its own notices and deliveries out of a listing, and its times are set in
// 2002, which no other part reaches.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../events';
import { noticeId } from '../notices';
import { ConcurrentAppendError, type EventStore } from '../types';
import { interruptRecord, openSession, steps, type ConformanceStores } from './support';

/** A second of 1 January 2002, UTC: long past, so every delivery fanned out at it is due. */
const in2002 = (second: number) => new Date(Date.UTC(2002, 0, 1) + second * 1000);
const LEASE_MS = 60_000;

const finished = (runId: string = randomUUID()): SessionEvent => ({ type: 'run_finished', runId, outcome: { type: 'success' } });

export function describeOutbox({ store, otherInstance }: ConformanceStores): void {
  /** A session with one notice (a run finished), fanned out to `targets` at `at`; its delivery ids. */
  async function fannedOut(at: Date, targets = [{ channel: 'webhook' as const, target: 'https://hooks.example.com' }], ownerId?: string) {
    const session = await openSession(store, ownerId);
    await store.append(session.id, 0, [finished()]);
    const id = noticeId(session.id, 1, 0);
    await store.fanOutNotices([{ noticeId: id, targets }], at);
    const listed = await store.listDeliveries({ ownerId: session.ownerId });
    return { session, noticeId: id, deliveryIds: listed.filter((delivery) => delivery.noticeId === id).map((delivery) => delivery.id) };
  }
  const claimedOf = async (claiming: EventStore, ids: string[], now: Date) =>
    (await claiming.claimDueDeliveries(now, { leaseMs: LEASE_MS })).filter((claim) => ids.includes(claim.delivery.id));

  describe('the outbox', () => {
    it('an append writes one notice per notable event, with an id derived from (session, seq, index), owned and named as its session', async () => {
      const session = await openSession(store, `owner-${randomUUID()}`, 'desk');
      const [a, b] = [interruptRecord(), interruptRecord()];
      const runId = randomUUID();
      const { at } = await store.append(session.id, 0, [
        ...steps(1),
        { type: 'interrupts_opened', interrupts: [a, b] },
        { type: 'interrupt_decided', interruptId: a.id, decision: { status: 'approved', by: { source: 'hitl', ownerId: session.ownerId } } },
        { type: 'interrupt_decided', interruptId: b.id, decision: { status: 'denied', expired: true, by: { source: 'expiry' } } },
        { type: 'run_finished', runId, outcome: { type: 'success' } },
        { type: 'run_failed', runId, code: 'model_error', message: 'The model failed.' },
      ]);
      const notices = (await otherInstance.unfannedNotices({ limit: 1000 })).filter((notice) => notice.sessionId === session.id);
      const base = { sessionId: session.id, agent: 'desk', ownerId: session.ownerId, at };
      expect(notices.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [
          { ...base, id: noticeId(session.id, 2, 0), type: 'interrupt.opened', data: { interrupt: a } },
          { ...base, id: noticeId(session.id, 2, 1), type: 'interrupt.opened', data: { interrupt: b } },
          {
            ...base,
            id: noticeId(session.id, 3, 0),
            type: 'interrupt.decided',
            data: { interruptId: a.id, decision: { status: 'approved', by: { source: 'hitl', ownerId: session.ownerId } } },
          },
          {
            ...base,
            id: noticeId(session.id, 4, 0),
            type: 'interrupt.expired',
            data: { interruptId: b.id, decision: { status: 'denied', expired: true, by: { source: 'expiry' } } },
          },
          { ...base, id: noticeId(session.id, 5, 0), type: 'run.finished', data: { runId, outcome: { type: 'success' } } },
          { ...base, id: noticeId(session.id, 6, 0), type: 'run.failed', data: { runId, code: 'model_error', message: 'The model failed.' } },
        ].sort((x, y) => x.id.localeCompare(y.id)),
      );
      expect(new Set(notices.map((notice) => notice.id)).size).toBe(6);
      expect(noticeId(session.id, 2, 1)).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    });

    it('an append that loses its race writes no notice, and one that creates its session writes its notices with it', async () => {
      const id = randomUUID();
      const create = { ownerId: `owner-${randomUUID()}`, agent: 'assistant' };
      const results = await Promise.allSettled([
        store.append(id, 0, [finished('run-a')], { create }),
        otherInstance.append(id, 0, [finished('run-b')], { create }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((result) => result.status === 'rejected');
      expect(ConcurrentAppendError.is(lost?.reason)).toBe(true);
      const notices = (await store.unfannedNotices({ limit: 1000 })).filter((notice) => notice.sessionId === id);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ id: noticeId(id, 1, 0), ownerId: create.ownerId, agent: 'assistant' });
      const [event] = await store.readEvents(id);
      expect(notices[0]!.data).toMatchObject({ runId: (event!.event as { runId: string }).runId });
    });

    it('a notice is fanned out once, into one delivery per target, whichever instances do it and how often', async () => {
      const session = await openSession(store);
      await store.append(session.id, 0, [finished()]);
      const id = noticeId(session.id, 1, 0);
      const targets = [
        { channel: 'webhook' as const, target: 'https://hooks.example.com' },
        { channel: 'email' as const, target: 'ops@example.com' },
      ];
      const created = await Promise.all([
        store.fanOutNotices([{ noticeId: id, targets }], in2002(0)),
        otherInstance.fanOutNotices([{ noticeId: id, targets }], in2002(0)),
      ]);
      expect(created.reduce((sum, count) => sum + count, 0)).toBe(2);
      expect(await store.fanOutNotices([{ noticeId: id, targets }], in2002(1))).toBe(0);
      expect((await otherInstance.unfannedNotices({ limit: 1000 })).map((notice) => notice.id)).not.toContain(id);
      const deliveries = (await otherInstance.listDeliveries({ ownerId: session.ownerId })).filter((delivery) => delivery.noticeId === id);
      expect(deliveries.map(({ channel, target }) => ({ channel, target })).sort((x, y) => x.channel.localeCompare(y.channel))).toEqual([
        targets[1],
        targets[0],
      ]);
      for (const delivery of deliveries) {
        expect(delivery).toMatchObject({
          noticeType: 'run.finished',
          sessionId: session.id,
          ownerId: session.ownerId,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: in2002(0),
          lastError: null,
          deliveredAt: null,
        });
      }
    });

    it('a notice no channel takes is fanned out with no deliveries', async () => {
      const session = await openSession(store);
      await store.append(session.id, 0, [finished()]);
      const id = noticeId(session.id, 1, 0);
      expect(await store.fanOutNotices([{ noticeId: id, targets: [] }], new Date())).toBe(0);
      expect((await store.unfannedNotices({ limit: 1000 })).map((notice) => notice.id)).not.toContain(id);
      expect(await store.listDeliveries({ ownerId: session.ownerId })).toEqual([]);
    });

    it("fans several notices out at once: each gets its targets' deliveries, and none is fanned out again", async () => {
      const sessions = await Promise.all([openSession(store), openSession(store), openSession(store)]);
      for (const session of sessions) await store.append(session.id, 0, [finished()]);
      const ids = sessions.map((session) => noticeId(session.id, 1, 0));
      const webhook = { channel: 'webhook' as const, target: 'https://hooks.example.com' };
      const fanOuts = [
        { noticeId: ids[0]!, targets: [] },
        { noticeId: ids[1]!, targets: [webhook] },
        { noticeId: ids[2]!, targets: [] },
      ];
      expect(await store.fanOutNotices(fanOuts, in2002(0))).toBe(1);
      expect((await otherInstance.unfannedNotices({ limit: 1000 })).map((notice) => notice.id).filter((id) => ids.includes(id))).toEqual([]);
      const owners = [...new Set(sessions.map((session) => session.ownerId))];
      const listed = (await Promise.all(owners.map((ownerId) => store.listDeliveries({ ownerId })))).flat();
      expect(listed.filter((delivery) => ids.includes(delivery.noticeId)).map((delivery) => delivery.noticeId)).toEqual([ids[1]]);
      expect(await otherInstance.fanOutNotices(fanOuts, in2002(1))).toBe(0);
    });

    it('a due delivery is claimed by one instance for one attempt, not due again until its lease runs out, with its notice', async () => {
      const { deliveryIds, noticeId: id } = await fannedOut(in2002(10));
      const [mine, theirs] = await Promise.all([claimedOf(store, deliveryIds, in2002(20)), claimedOf(otherInstance, deliveryIds, in2002(20))]);
      const claims = [...mine, ...theirs];
      expect(claims).toHaveLength(1);
      expect(claims[0]!.delivery).toMatchObject({ id: deliveryIds[0], attempts: 1, nextAttemptAt: new Date(in2002(20).getTime() + LEASE_MS) });
      expect(claims[0]!.notice).toMatchObject({ id, type: 'run.finished' });
      expect(await claimedOf(store, deliveryIds, in2002(30))).toEqual([]);
      // The claimer died: once the lease runs out, the delivery comes round again, one attempt more.
      const again = await claimedOf(otherInstance, deliveryIds, new Date(in2002(20).getTime() + LEASE_MS));
      expect(again.map((claim) => claim.delivery.attempts)).toEqual([2]);
      // The first claim's outcome comes too late: the delivery is the second claim's.
      expect(await store.recordDeliveryAttempt(deliveryIds[0]!, 1, { status: 'delivered', at: in2002(100) })).toBe(false);
      expect(await store.recordDeliveryAttempt(deliveryIds[0]!, 2, { status: 'delivered', at: in2002(100) })).toBe(true);
    });

    it('records failures with their next attempt, a last failure as given up, and a success as delivered; only open ones are claimed', async () => {
      const { session, deliveryIds } = await fannedOut(in2002(200), [
        { channel: 'webhook', target: 'https://a.example.com' },
        { channel: 'webhook', target: 'https://b.example.com' },
      ]);
      const [a, b] = await claimedOf(store, deliveryIds, in2002(200));
      expect(await otherInstance.recordDeliveryAttempt(a!.delivery.id, 1, { status: 'failing', error: 'HTTP 503', nextAttemptAt: in2002(210) })).toBe(true);
      expect(await otherInstance.recordDeliveryAttempt(b!.delivery.id, 1, { status: 'gave_up', error: 'HTTP 410' })).toBe(true);
      expect(await claimedOf(store, deliveryIds, in2002(205))).toEqual([]);
      const retried = await claimedOf(store, deliveryIds, in2002(10_000));
      expect(retried.map((claim) => [claim.delivery.id, claim.delivery.attempts, claim.delivery.lastError])).toEqual([[a!.delivery.id, 2, 'HTTP 503']]);
      expect(await store.recordDeliveryAttempt(a!.delivery.id, 2, { status: 'delivered', at: in2002(10_001) })).toBe(true);
      // Delivered and given up are final: nothing changes them but a retry.
      expect(await store.recordDeliveryAttempt(a!.delivery.id, 2, { status: 'gave_up', error: 'late' })).toBe(false);
      expect(await claimedOf(store, deliveryIds, in2002(1_000_000))).toEqual([]);
      const byId = new Map((await otherInstance.listDeliveries({ ownerId: session.ownerId })).map((delivery) => [delivery.id, delivery]));
      expect(byId.get(a!.delivery.id)).toMatchObject({ status: 'delivered', attempts: 2, deliveredAt: in2002(10_001), lastError: null });
      expect(byId.get(b!.delivery.id)).toMatchObject({ status: 'gave_up', attempts: 1, deliveredAt: null, lastError: 'HTTP 410' });
    });

    it("lists an owner's deliveries newest first, a key holder's with the browsers' too, and retries a failed one for its owner only", async () => {
      const owner = `owner-${randomUUID()}`;
      const first = await fannedOut(in2002(300), undefined, owner);
      const second = await fannedOut(in2002(301), undefined, owner);
      const browsers = await fannedOut(in2002(302), undefined, `browser:${randomUUID()}`);
      const ids = [...first.deliveryIds, ...second.deliveryIds, ...browsers.deliveryIds];
      const mine = (list: { id: string }[]) => list.map((delivery) => delivery.id).filter((id) => ids.includes(id));
      expect(mine(await otherInstance.listDeliveries({ ownerId: owner }))).toEqual([...second.deliveryIds, ...first.deliveryIds]);
      expect(mine(await otherInstance.listDeliveries({ ownerId: owner, keyHolder: true }))).toEqual([
        ...browsers.deliveryIds,
        ...second.deliveryIds,
        ...first.deliveryIds,
      ]);
      expect(mine(await otherInstance.listDeliveries({ ownerId: `owner-${randomUUID()}` }))).toEqual([]);

      const id = first.deliveryIds[0]!;
      // Pending is not retried: it is due already.
      expect(await store.retryDelivery(id, { ownerId: owner }, in2002(400))).toBeNull();
      const [claim] = await claimedOf(store, [id], in2002(400));
      await store.recordDeliveryAttempt(id, claim!.delivery.attempts, { status: 'gave_up', error: 'HTTP 500' });
      expect(await store.retryDelivery(id, { ownerId: `owner-${randomUUID()}` }, in2002(500))).toBeNull();
      expect(await store.retryDelivery(randomUUID(), { ownerId: owner }, in2002(500))).toBeNull();
      expect(await otherInstance.retryDelivery(id, { ownerId: owner }, in2002(500))).toMatchObject({
        id,
        status: 'failing',
        attempts: 1,
        nextAttemptAt: in2002(500),
      });
      expect((await claimedOf(store, [id], in2002(500))).map((due) => due.delivery.attempts)).toEqual([2]);
    });
  });
}
