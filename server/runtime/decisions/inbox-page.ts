// One page of the out-of-band inbox (docs/hitl.md, "Paging the inbox"): the caller's own sessions'
// open decisions first, then — for a key holder — the others' it may decide, each part newest
// first and paged by position (time, then id), so that nobody else's requests, however many, push
// the caller's own off the first pages, and a request opened while someone pages shifts nothing.
import type { InboxFilter } from '../../contract';
import type { DecisionActor } from '../../store/pauses';
import type { EventStore, InterruptListPart, InterruptPosition, InterruptRow } from '../../store/types';
import { isExpired } from './interrupt-record';
import { mayDecide, seesOthersApprovals } from './who-may-decide';

/** Where a page starts: a part of the list, and the row of it the last page ended on (none: its start). */
export interface InboxPosition {
  part: InterruptListPart;
  after: InterruptPosition | null;
}

export interface InboxPage {
  rows: InterruptRow[];
  /** Where the next page starts; null when this one is the last. */
  next: InboxPosition | null;
}

/**
 * How many reads of the store one page may take. A page skips what the caller may not decide (one
 * kept for other keys) and what expired; when most rows are such, the page ends short of its limit
 * with a position to go on from, rather than reading on without end.
 */
const MAX_READS_PER_PAGE = 4;

/** The parts a filter lists, in order: the kept part is a key holder's only. */
export function inboxParts(filter: InboxFilter, keyHolder: boolean): InterruptListPart[] {
  const parts: InterruptListPart[] = filter === 'mine' ? ['own'] : filter === 'key-holders' ? ['kept'] : ['own', 'kept'];
  return keyHolder ? parts : parts.filter((part) => part === 'own');
}

/** The page of `filter` from `from` (the first page when null): at most `limit` decisions the caller may make now. */
export async function inboxPage(
  store: EventStore,
  actor: DecisionActor & { ownerId: string },
  request: { filter: InboxFilter; limit: number; from: InboxPosition | null },
  now = Date.now(),
): Promise<InboxPage> {
  const keyHolder = seesOthersApprovals(actor.credential);
  const parts = inboxParts(request.filter, keyHolder);
  const rows: InterruptRow[] = [];
  let position: InboxPosition | null = request.from ?? (parts[0] ? { part: parts[0], after: null } : null);
  for (let read = 0; position && rows.length < request.limit && read < MAX_READS_PER_PAGE; read++) {
    const want = request.limit - rows.length;
    // One row more than wanted says whether the part goes on past this page.
    const batch = await store.listPendingInterrupts(actor.ownerId, { keyHolder, part: position.part, after: position.after ?? undefined, limit: want + 1 });
    const taken = batch.slice(0, want);
    rows.push(...taken.filter((row) => !isExpired(row.record, now) && mayDecide(row.record, row.ownerId, actor)));
    const last = taken.at(-1);
    if (batch.length > want && last) position = { part: position.part, after: { createdAt: last.createdAt, id: last.id } };
    else {
      const next = parts[parts.indexOf(position.part) + 1];
      position = next ? { part: next, after: null } : null;
    }
  }
  return { rows, next: position };
}
