// A session's signed receipts (docs/approvals.md, "Signed receipts"): every decision's and every
// vote's, in the order the log recorded them. Read from the log, where each was written with the
// decision it proves.
import type { EventStore } from '../../store/types';

export async function sessionReceipts(store: EventStore, sessionId: string): Promise<string[]> {
  const events = await store.readEvents(sessionId);
  return events.flatMap(({ event }) => {
    if (event.type === 'interrupt_decided') return event.decision.receipt ?? [];
    if (event.type === 'interrupt_voted') return event.vote.receipt ?? [];
    return [];
  });
}
