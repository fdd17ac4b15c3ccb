// The thread a forked thread came from (docs/time-travel.md), as the hydration JSON and the
// thread page's first paint give it: its origin without the copy's own bookkeeping.
import type { ForkMode } from '../store/events';

export interface ForkParent {
  threadId: string;
  atMessageId: string;
  mode: ForkMode;
}
