// GET /api/hitl's `cursor` (docs/hitl.md, "Paging the inbox"): where the next page starts — a part
// of the list and the time and id of the row the last page ended on — as one opaque word. It
// carries no right: a cursor only positions the caller's own listing, so it needs no signature,
// only a check that it is one this server could have sent.
import { HttpError } from '../../http/errors';
import type { InboxPosition } from '../../runtime';

/** An interrupt id as a cursor may carry it: printable ASCII, no space (a NUL never reaches the database). */
const ROW_ID = /^[\x21-\x7e]{1,256}$/;

export function encodeInboxCursor(position: InboxPosition): string {
  const fields = position.after ? [position.part, position.after.createdAt.getTime(), position.after.id] : [position.part];
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

/** The position a cursor names; 400 `invalid_cursor` for anything this server did not send. */
export function decodeInboxCursor(cursor: string): InboxPosition {
  const fields = parseFields(cursor) ?? [];
  const [part, at, id] = fields;
  const known = part === 'own' || part === 'kept';
  if (known && fields.length === 1) return { part, after: null };
  if (known && fields.length === 3 && Number.isSafeInteger(at) && (at as number) >= 0 && typeof id === 'string' && ROW_ID.test(id)) {
    return { part, after: { createdAt: new Date(at as number), id } };
  }
  throw new HttpError('invalid_cursor', `"${cursor.slice(0, 80)}" is not a cursor of this inbox: pass the nextCursor of a page, or none for the first.`);
}

function parseFields(cursor: string): unknown[] | undefined {
  if (cursor.length > 600 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
