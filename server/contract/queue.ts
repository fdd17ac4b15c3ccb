// The thread's message queue as every client shows it (docs/turn-control.md, "Queue"): the
// queue endpoint's answer, the session stream's `stackbone.queue` event and the first paint
// all carry these items, in the order they go out.

/** One queued message, as a client shows it. */
export interface QueueItem {
  /** The message's id: the queue endpoint's `edit`, `move`, `remove` and `sendNow` name it. */
  id: string;
  content: string;
  /** The run that sends it when its turn comes. */
  runId: string;
  /** Asked to go now: the turn in progress ends at its next step, a pending decision is cancelled. */
  sendNow: boolean;
}
