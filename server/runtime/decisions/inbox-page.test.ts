// The inbox's pages (docs/hitl.md, "Paging the inbox"), on the in-memory store: a key holder's own
// requests come first whatever the others' number, walking the pages lists each decision once,
// a filter lists its part only, and what the caller may not decide is skipped without the page
// reading on without end.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import { interruptRecord } from '../../store/conformance/support';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { inboxPage, type InboxPosition } from './inbox-page';

const KEY = 'key:desk';
const desk: DecisionActor & { ownerId: string } = { source: 'hitl', ownerId: KEY, credential: 'key' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens each record in a session of its own, owned by `ownerId`, a millisecond or more apart (oldest first). */
async function open(store: EventStore, ownerId: string, records: InterruptRecord[]): Promise<string[]> {
  for (const record of records) {
    const session = await store.ensureSession({ id: randomUUID(), ownerId, agent: 'helpdesk' });
    await store.append(session.id, 0, [{ type: 'interrupts_opened', interrupts: [record] }], { status: 'interrupted' });
    await sleep(2);
  }
  return records.map((record) => record.id);
}

/** Every page of `filter` from the start, `limit` at a time; `between` runs after each page. */
async function walk(store: EventStore, actor: typeof desk, filter: 'mine' | 'key-holders' | 'all', limit: number, between?: () => Promise<void>) {
  const pages: string[][] = [];
  let from: InboxPosition | null = null;
  do {
    const page = await inboxPage(store, actor, { filter, limit, from });
    pages.push(page.rows.map((row) => row.id));
    from = page.next;
    await between?.();
  } while (from && pages.length < 100);
  return pages;
}

const keptForKeys = (count: number) => Array.from({ length: count }, () => interruptRecord({ approvers: 'key-holders' }));

describe('the inbox pages', () => {
  it("lists a key holder's own request first though a dozen browsers' are newer, and every one once across the pages", async () => {
    const store = createMemoryStore();
    const [own] = await open(store, KEY, [interruptRecord()]);
    const theirs = await open(store, `browser:${randomUUID()}`, keptForKeys(12));

    const first = await inboxPage(store, desk, { filter: 'all', limit: 5, from: null });
    expect(first.rows[0]!.id).toBe(own);
    expect(first.rows).toHaveLength(5);

    const pages = await walk(store, desk, 'all', 5);
    expect(pages.map((page) => page.length)).toEqual([5, 5, 3]);
    expect(pages.flat()).toEqual([own, ...theirs.toReversed()]);
  });

  it('a filter lists its part only; the kept part is for key holders, the local owner has only its own', async () => {
    const store = createMemoryStore();
    const [own] = await open(store, KEY, [interruptRecord()]);
    const theirs = await open(store, `browser:${randomUUID()}`, keptForKeys(3));
    expect((await walk(store, desk, 'mine', 2)).flat()).toEqual([own]);
    expect((await walk(store, desk, 'key-holders', 2)).flat()).toEqual(theirs.toReversed());
    const browser: typeof desk = { source: 'hitl', ownerId: `browser:${randomUUID()}`, credential: 'browser' };
    expect(await inboxPage(store, browser, { filter: 'key-holders', limit: 10, from: null })).toEqual({ rows: [], next: null });
  });

  it('a request opened between pages is on none of the later ones, and no page repeats or skips one', async () => {
    const store = createMemoryStore();
    const browser = `browser:${randomUUID()}`;
    const before = await open(store, browser, keptForKeys(7));
    const during: string[] = [];
    const pages = await walk(store, desk, 'key-holders', 3, async () => {
      during.push(...(await open(store, browser, keptForKeys(1))));
    });
    expect(pages.flat()).toEqual(before.toReversed());
    expect(during).toHaveLength(pages.length);
  });

  it('skips what the caller may not decide, and what expired, ending a page short rather than reading on', async () => {
    const store = createMemoryStore();
    const browser = `browser:${randomUUID()}`;
    const [decidable] = await open(store, browser, keptForKeys(1));
    await open(store, browser, [interruptRecord({ approvers: 'key-holders', expiresAt: new Date(Date.now() - 1000).toISOString() })]);
    // Kept for a key this server does not have: listed to key holders, decided by none of them.
    await open(
      store,
      `key:${randomUUID()}`,
      Array.from({ length: 20 }, () => interruptRecord({ approvers: ['key:finance'] })),
    );

    const first = await inboxPage(store, desk, { filter: 'key-holders', limit: 2, from: null });
    expect(first.rows).toEqual([]);
    expect(first.next).not.toBeNull();
    const pages = await walk(store, desk, 'key-holders', 2);
    expect(pages.flat()).toEqual([decidable]);
    expect(pages.length).toBeGreaterThan(1);
  });
});
