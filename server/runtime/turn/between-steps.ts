// What reaches a running turn between its steps, kept beside the log while the run holds it:
// guidance a person added (docs/turn-control.md, "Steer"), taken in before the next model call,
// and a queued message sent now (docs/turn-control.md, "Queue"), which ends the turn there.
// Only the root thread of a durable session has either.
import type { SessionEvent } from '../../store/events';
import type { EventStore } from '../../store/types';

export class BetweenSteps {
  private resumedRead = false;

  constructor(
    private readonly store: EventStore,
    private readonly sessionId: string,
    private readonly runId: string,
    /** The paused run this one continues, whose guidance it inherits. */
    private readonly resumesRunId: string | undefined,
  ) {}

  /** The guidance not in the conversation yet, as the events that add it, oldest first. */
  async guidance(known: ReadonlySet<string>): Promise<SessionEvent[]> {
    // Guidance that reached the paused run this one continues comes first: it was sent to this
    // turn. That run has ended, so none can reach it later: it is read once.
    const resumed = this.resumedRead ? undefined : this.resumesRunId;
    this.resumedRead = true;
    const runs = resumed ? [resumed, this.runId] : [this.runId];
    const steers = (await Promise.all(runs.map((runId) => this.store.listSteers(this.sessionId, runId)))).flat();
    return steers.filter((steer) => !known.has(steer.message.id)).map((steer) => ({ type: 'message_added' as const, message: steer.message }));
  }

  /** Is a message other than this run's own waiting in the queue to be sent now? */
  async queuedSentNow(): Promise<boolean> {
    return (await this.store.listQueue(this.sessionId)).some((item) => item.sendNow && item.runId !== this.runId);
  }
}
