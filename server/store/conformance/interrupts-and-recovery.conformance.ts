// The store's conformance suite on what is read across sessions: the interrupt projection an append keeps in
// step with the log (Studio's inbox, docs/studio.md), and the sessions a recovery sweep takes on
// (docs/turn-control.md). The database is shared with the other parts' sessions, so each test
// reads only its own sessions out of a listing, and "overdue" times are set in 2001, which no
// other test reaches.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InterruptRecord } from '../pauses';
import type { SessionEvent } from '../events';
import { interruptRecord, openSession, sleep, steps, type ConformanceStores } from './support';

/** A minute of 1 January 2001, UTC: long past, and before every lease and expiry other tests set. */
const longAgo = (minute: number) => new Date(Date.UTC(2001, 0, 1) + minute * 60_000);

const opened = (...interrupts: InterruptRecord[]): SessionEvent[] => [{ type: 'interrupts_opened', interrupts }];
const decided = (interruptId: string): SessionEvent[] => [{ type: 'interrupt_decided', interruptId, decision: { status: 'approved', by: { source: 'agui' } } }];

export function describeInterruptsAndRecovery({ store, otherInstance }: ConformanceStores): void {
  const newSession = (ownerId?: string) => openSession(store, ownerId);
  /** The ids of `ids` that `listed` holds, in its order. */
  const onlyOf = (ids: string[], listed: string[]) => listed.filter((id) => ids.includes(id));

  describe('the interrupt projection', () => {
    it("holds the interrupts an append opens, found by id and listed as the owner's pending ones, newest first, until decided", async () => {
      const owner = `owner-${randomUUID()}`;
      const [first, second] = [await newSession(owner), await newSession(owner)];
      const older = interruptRecord({ agent: 'analyst' });
      const newer = interruptRecord();
      await store.append(first.id, 0, opened(older), { status: 'interrupted' });
      await sleep(5);
      await otherInstance.append(second.id, 0, opened(newer), { status: 'interrupted' });

      const found = await otherInstance.findInterrupt(older.id);
      expect(found).toEqual({
        id: older.id,
        sessionId: first.id,
        ownerId: owner,
        agent: 'analyst',
        status: 'pending',
        record: older,
        createdAt: expect.any(Date),
        decidedAt: null,
      });
      expect(await store.findInterrupt(`int_${randomUUID()}`)).toBeNull();
      expect((await store.listPendingInterrupts(owner)).map((row) => row.id)).toEqual([newer.id, older.id]);
      expect((await store.listPendingInterrupts(owner, { limit: 1 })).map((row) => row.id)).toEqual([newer.id]);
      expect(await store.listPendingInterrupts(`owner-${randomUUID()}`)).toEqual([]);

      await otherInstance.append(first.id, 1, decided(older.id), { status: 'idle' });
      expect(await store.findInterrupt(older.id)).toMatchObject({ status: 'decided', decidedAt: expect.any(Date) });
      expect((await store.listPendingInterrupts(owner)).map((row) => row.id)).toEqual([newer.id]);
      // The decided ones, for the decision export (docs/replay.md).
      expect((await store.listPendingInterrupts(owner, { status: 'decided' })).map((row) => row.id)).toEqual([older.id]);
    });

    it('counts the undecided interrupts of every owner by tool, for the pending-approvals metric (docs/observability.md); a decision takes one off', async () => {
      // Tool names of this test's own: the database holds the other tests' interrupts too.
      const [refund, close] = [`refund-${randomUUID()}`, `close-${randomUUID()}`];
      const [first, second] = [await newSession(), await newSession()];
      const refunds = [interruptRecord({ toolName: refund }), interruptRecord({ toolName: refund })];
      await store.append(first.id, 0, opened(...refunds, interruptRecord({ toolName: close })), { status: 'interrupted' });
      await otherInstance.append(second.id, 0, opened(interruptRecord({ toolName: refund })), { status: 'interrupted' });
      const counts = await otherInstance.countPendingInterrupts();
      expect([counts[refund], counts[close]]).toEqual([3, 1]);

      await store.append(first.id, 1, decided(refunds[0]!.id));
      expect((await store.countPendingInterrupts())[refund]).toBe(2);
    });

    it('lists to a key holder also the browsers\' interrupts kept for key holders (docs/security.md, "Approvers"), and no others', async () => {
      const browser = await newSession(`browser:${randomUUID()}`);
      const keyOwner = `key:${randomUUID()}`;
      const keyOwners = await newSession(`key:${randomUUID()}`);
      const forKeys = interruptRecord({ approvers: 'key-holders' });
      const forOwner = interruptRecord();
      const anotherKeysOwn = interruptRecord({ approvers: 'key-holders' });
      await store.append(browser.id, 0, opened(forKeys, forOwner));
      await store.append(keyOwners.id, 0, opened(anotherKeysOwn));

      const keyHolders = (await store.listPendingInterrupts(keyOwner, { keyHolder: true })).map((row) => row.id);
      expect(keyHolders).toContain(forKeys.id);
      expect(keyHolders).not.toContain(forOwner.id);
      expect(keyHolders).not.toContain(anotherKeysOwn.id);
      expect(await store.listPendingInterrupts(keyOwner)).toEqual([]);
      expect((await store.listPendingInterrupts(browser.ownerId)).map((row) => row.id).sort()).toEqual([forKeys.id, forOwner.id].sort());
    });

    it('lists to a key holder every interrupt kept for a list of approvers, in whoever session it waits (docs/approvals.md); not to others', async () => {
      const keyOwners = await newSession(`key:${randomUUID()}`);
      const named = interruptRecord({ approvers: ['key:finance'], quorum: 2 });
      await store.append(keyOwners.id, 0, opened(named));
      expect(await store.findInterrupt(named.id)).toMatchObject({ record: { approvers: ['key:finance'], quorum: 2 } });
      expect((await store.listPendingInterrupts(`key:${randomUUID()}`, { keyHolder: true })).map((row) => row.id)).toContain(named.id);
      expect(await store.listPendingInterrupts(`browser:${randomUUID()}`)).toEqual([]);
    });
  });

  describe('paging the interrupt list (docs/hitl.md, "Paging the inbox")', () => {
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    const byId = (records: InterruptRecord[]) => records.map((record) => record.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

    it("lists a key holder's own part apart from the kept part: its own sessions' (even one kept for a list) in one, the browsers' in the other", async () => {
      const keyOwner = `key:${randomUUID()}`;
      const own = await newSession(keyOwner);
      const browser = await newSession(`browser:${randomUUID()}`);
      const mine = interruptRecord();
      const mineNamed = interruptRecord({ approvers: ['key:finance'] });
      const theirs = interruptRecord({ approvers: 'key-holders' });
      await store.append(own.id, 0, opened(mine, mineNamed));
      await store.append(browser.id, 0, opened(theirs));
      const mineIds = [mine.id, mineNamed.id, theirs.id];

      expect(onlyOf(mineIds, ids(await store.listPendingInterrupts(keyOwner, { keyHolder: true, part: 'own' }))).sort()).toEqual(byId([mine, mineNamed]));
      expect(onlyOf(mineIds, ids(await otherInstance.listPendingInterrupts(keyOwner, { keyHolder: true, part: 'kept' })))).toEqual([theirs.id]);
      expect(onlyOf(mineIds, ids(await store.listPendingInterrupts(keyOwner, { keyHolder: true }))).sort()).toEqual(byId([mine, mineNamed, theirs]));
      // The kept part is a key holder's only.
      expect(await store.listPendingInterrupts(keyOwner, { part: 'kept' })).toEqual([]);
      expect(ids(await store.listPendingInterrupts(browser.ownerId, { part: 'own' }))).toEqual([theirs.id]);
    });

    it('pages by position: each row once, in order, rows of one append by id; a row opened meanwhile does not shift the pages', async () => {
      const owner = `owner-${randomUUID()}`;
      const [first, second] = [await newSession(owner), await newSession(owner)];
      const older = [interruptRecord(), interruptRecord(), interruptRecord()];
      const newer = [interruptRecord(), interruptRecord()];
      await store.append(first.id, 0, opened(...older));
      await sleep(5);
      await store.append(second.id, 0, opened(...newer));
      const expected = [...byId(newer), ...byId(older)];

      const pages: string[][] = [];
      let after: { createdAt: Date; id: string } | undefined;
      for (let page = 0; page < 10; page++) {
        const rows = await (page % 2 ? otherInstance : store).listPendingInterrupts(owner, { part: 'own', limit: 2, after });
        if (rows.length === 0) break;
        pages.push(ids(rows));
        after = { createdAt: rows.at(-1)!.createdAt, id: rows.at(-1)!.id };
        // Opened after the first page was read, a millisecond on at least (a position is its time, then
        // its id): newer than every position, so no later page has it.
        if (page === 0) {
          await sleep(5);
          await store.append(first.id, 1, opened(interruptRecord()));
        }
      }
      expect(pages).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    });
  });

  describe('listRecoverable', () => {
    it('lists runs whose lease ran out, longest waiting first, at most `limit` of them; not a live lease, nor a session no longer running', async () => {
      const stale: string[] = [];
      for (const minute of [3, 1, 2]) {
        const { id } = await newSession();
        await store.append(id, 0, steps(1), { status: 'running', leaseUntil: longAgo(minute) });
        stale.push(id);
      }
      const live = await newSession();
      await store.append(live.id, 0, steps(1), { status: 'running', leaseUntil: longAgo(20) });
      const ended = await newSession();
      await store.append(ended.id, 0, steps(1), { status: 'idle', leaseUntil: longAgo(0) });
      const mine = [...stale, live.id, ended.id];

      const now = longAgo(10);
      expect(onlyOf(mine, await otherInstance.listRecoverable(now))).toEqual([stale[1], stale[2], stale[0]]);
      expect(onlyOf(mine, await store.listRecoverable(now, { limit: 2 }))).toEqual([stale[1], stale[2]]);
    });

    it('lists sessions with an undecided interrupt past its expiry, the longest expired first, at most `limit`; not one decided, nor one not yet due', async () => {
      const open = async (expiresAt?: Date) => {
        const { id } = await newSession();
        const record = interruptRecord(expiresAt ? { expiresAt: expiresAt.toISOString() } : {});
        await store.append(id, 0, opened(record), { status: 'interrupted' });
        return { id, record };
      };
      const later = await open(longAgo(5));
      const sooner = await open(longAgo(4));
      const notDue = await open(longAgo(30));
      const noExpiry = await open();
      const decidedOne = await open(longAgo(3));
      await store.append(decidedOne.id, 1, decided(decidedOne.record.id), { status: 'idle' });
      const mine = [later.id, sooner.id, notDue.id, noExpiry.id, decidedOne.id];

      const now = longAgo(10);
      expect(onlyOf(mine, await otherInstance.listRecoverable(now))).toEqual([sooner.id, later.id]);
      expect(onlyOf(mine, await store.listRecoverable(now, { limit: 1 }))).toEqual([sooner.id]);
    });

    it("moves an escalated interrupt's expiry in the projection, so that it is listed again only when its new expiry passes", async () => {
      const { id } = await newSession();
      const record = interruptRecord({ expiresAt: longAgo(5).toISOString() });
      await store.append(id, 0, opened(record), { status: 'interrupted' });
      expect(await otherInstance.listRecoverable(longAgo(10))).toContain(id);
      const expiresAt = longAgo(20).toISOString();
      await store.append(id, 1, [{ type: 'interrupt_escalated', interruptId: record.id, level: 1, expiresAt, to: ['key:ops'] }], { status: 'interrupted' });
      expect((await otherInstance.findInterrupt(record.id))!.record.expiresAt).toBe(expiresAt);
      expect((await otherInstance.listPendingInterrupts((await store.getSession(id))!.ownerId))[0]!.record.expiresAt).toBe(expiresAt);
      expect(await otherInstance.listRecoverable(longAgo(10))).not.toContain(id);
      expect(await otherInstance.listRecoverable(longAgo(21))).toContain(id);
    });

    it('lists a session whose interrupt has a reminder due until the reminder is recorded', async () => {
      const { id } = await newSession();
      const record = interruptRecord({ remindAt: longAgo(6).toISOString() });
      await store.append(id, 0, opened(record), { status: 'interrupted' });
      expect(await otherInstance.listRecoverable(longAgo(5))).not.toContain(id);
      expect(await otherInstance.listRecoverable(longAgo(7))).toContain(id);
      await store.append(id, 1, [{ type: 'interrupt_reminded', interruptId: record.id }], { status: 'interrupted' });
      expect(await otherInstance.listRecoverable(longAgo(7))).not.toContain(id);
    });

    it('lists an idle session with queued messages, the longest waiting first, at most `limit`; a running one is not', async () => {
      const say = (content: string) => ({ id: `q-${randomUUID()}`, role: 'user' as const, content });
      const older = await newSession();
      await store.enqueue({ sessionId: older.id, entries: [{ message: say('first'), runId: 'r1' }], source: 'agui' });
      await sleep(5);
      const newer = await newSession();
      await otherInstance.enqueue({ sessionId: newer.id, entries: [{ message: say('second'), runId: 'r2' }], source: 'agui' });
      await store.enqueue({ sessionId: older.id, entries: [{ message: say('third'), runId: 'r3' }], source: 'agui' });

      expect(onlyOf([older.id, newer.id], await store.listRecoverable(new Date()))).toEqual([older.id, newer.id]);
      // Sessions queued earlier elsewhere in the suite may come first; the newer one never does.
      expect(await store.listRecoverable(new Date(), { limit: 1 })).not.toContain(newer.id);

      await store.append(older.id, 0, [{ type: 'run_started', runId: 'r0', source: 'agui', inputs: 0 }], {
        status: 'running',
        leaseUntil: new Date(Date.now() + 60_000),
      });
      expect(await otherInstance.listRecoverable(new Date())).not.toContain(older.id);
    });
  });
}
