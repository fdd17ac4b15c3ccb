// What a forked thread shows of the thread it came from (docs/time-travel.md): its origin
// without the copy's own bookkeeping (the seq it was copied through). Null for an original.
import type { ForkParent } from '../../contract';
import type { SessionView } from '../session';

export function forkParent(view: SessionView): ForkParent | null {
  const from = view.forkedFrom;
  return from ? { threadId: from.threadId, atMessageId: from.atMessageId, mode: from.mode } : null;
}
