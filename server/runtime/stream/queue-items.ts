// A thread's queue as clients show it (docs/turn-control.md, "Queue"): the hydration JSON, the
// session stream's queue part, the queue endpoint's answer.
import type { QueuedMessage } from '../../store/types';

/** What a client shows of a queued message. */
export interface QueueItem {
  id: string;
  content: string;
  runId: string;
  sendNow: boolean;
}

export function queueItems(queue: QueuedMessage[]): QueueItem[] {
  return queue.map((item) => ({ id: item.message.id, content: item.message.content, runId: item.runId, sendNow: item.sendNow }));
}
