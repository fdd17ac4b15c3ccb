// GET /api/hitl's query (docs/hitl.md, "Paging the inbox"): `filter` (whose decisions), `limit`
// (how many a page holds) and `cursor` (where it starts), checked before anything is read.
import { INBOX_FILTERS, INBOX_PAGE_SIZE, type InboxFilter } from '../../contract';
import { HttpError } from '../../http/errors';
import { inboxParts, type InboxPosition } from '../../runtime';
import { decodeInboxCursor } from './inbox-cursor';

export interface InboxQuery {
  filter: InboxFilter;
  limit: number;
  from: InboxPosition | null;
}

export function parseInboxQuery(url: string, keyHolder: boolean): InboxQuery {
  const params = new URL(url).searchParams;
  const filter = params.get('filter') ?? 'all';
  if (!isFilter(filter)) throw new HttpError('invalid_request', `filter must be one of ${INBOX_FILTERS.join(', ')}; got "${filter.slice(0, 40)}".`);
  const limitText = params.get('limit');
  const limit = limitText === null ? INBOX_PAGE_SIZE.default : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new HttpError('invalid_request', `limit must be a whole number from 1 (at most ${INBOX_PAGE_SIZE.max} are sent).`);
  const cursor = params.get('cursor');
  const from = cursor === null ? null : decodeInboxCursor(cursor);
  // A cursor of another filter's listing (or of a key holder's, presented without the key) positions nothing here.
  if (from && !inboxParts(filter, keyHolder).includes(from.part)) {
    throw new HttpError('invalid_cursor', `This cursor is not one of filter=${filter}'s pages: page with the filter the cursor came from.`);
  }
  return { filter, limit: Math.min(limit, INBOX_PAGE_SIZE.max), from };
}

function isFilter(value: string): value is InboxFilter {
  return (INBOX_FILTERS as readonly string[]).includes(value);
}
