// The pending list past its first page (docs/hitl.md, "Paging the inbox"): GET /api/hitl answers a page and
// the cursor of the next; these follow the cursors, for `hitl list --all` and for finding the call
// a decision is about before asking to confirm it.

/** The most pages followed: 200 a page, far more than any inbox holds; a server that never ends its list is stopped here. */
const MAX_PAGES = 500;
/** The largest page the server sends (docs/hitl.md). */
const PAGE_SIZE = 200;

/**
 * Every pending interrupt of `filter`, page after page.
 * @param {{ list: (query?: { filter?: string, cursor?: string, limit?: number }) => Promise<{ interrupts?: any[], nextCursor?: string | null }> }} client
 * @param {string | undefined} filter
 * @returns {Promise<{ interrupts: any[], nextCursor: null }>}
 */
export async function listAll(client, filter) {
  const interrupts = [];
  for await (const page of pages(client, filter)) interrupts.push(...page);
  return { interrupts, nextCursor: null };
}

/**
 * The pending interrupt with this id, wherever it is in the list; undefined when it is not pending.
 * @param {Parameters<typeof listAll>[0]} client @param {string} id
 */
export async function findPending(client, id) {
  for await (const page of pages(client, undefined)) {
    const found = page.find((/** @type {any} */ interrupt) => interrupt.id === id);
    if (found) return found;
  }
  return undefined;
}

/** @param {Parameters<typeof listAll>[0]} client @param {string | undefined} filter */
async function* pages(client, filter) {
  /** @type {string | undefined} */
  let cursor;
  const seen = new Set();
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.list({ filter, cursor, limit: PAGE_SIZE });
    yield answer.interrupts ?? [];
    const next = answer.nextCursor;
    if (typeof next !== 'string' || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}
