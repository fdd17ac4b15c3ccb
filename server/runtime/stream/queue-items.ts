// A thread's queue as clients show it (docs/turn-control.md, "Queue"): the hydration JSON, the
// session stream's queue part, the queue endpoint's answer. The item's shape is the contract's.
import type { QueueItem } from '../../contract';
import type { QueuedMessage } from '../../store/types';

export function queueItems(queue: QueuedMessage[]): QueueItem[] {
  return queue.map((item) => ({ id: item.message.id, content: item.message.content, runId: item.runId, sendNow: item.sendNow }));
}
