// The key a client named an interrupt's session by, read off its row: a stored session id is
// `<owner id>/<key>` (docs/security.md, "Owners and their ids"), and the row names its owner. The
// runtime's sessionKeyOf reads the same off an id alone; the store, below the runtime, has its own.
import type { InterruptRow } from './types';

export function sessionKeyOfRow(row: Pick<InterruptRow, 'sessionId' | 'ownerId'>): string {
  return row.sessionId.slice(row.ownerId.length + 1);
}
