// What reaches a running turn between its steps, kept beside the log while the run holds it:
// guidance a person added (docs/turn-control.md, "Steer"), taken in before the next model call,
// and a queued message sent now (docs/turn-control.md, "Queue"), which ends the turn there.
// Only the root thread of a durable session has either.
import type { SessionEvent } from '../../store/events';
import type { EventStore } from '../../store/types';

export class BetweenSteps {
  private resumedRead = false;
  /** Every steer read so far, taken in or known already. */
  private readonly seen = new Set<string>();

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
    for (const steer of steers) this.seen.add(steer.id);
    return steers.filter((steer) => !known.has(steer.message.id)).map((steer) => ({ type: 'message_added' as const, message: steer.message }));
  }

  /**
   * The condition of an append that ends the turn on the model's answer: no guidance but what
   * guidance() has read, checked by the store with the append itself (AppendOptions.unlessGuidance).
   */
  unread(): { runIds: string[]; seen: string[] } {
    const runs = !this.resumedRead && this.resumesRunId ? [this.resumesRunId, this.runId] : [this.runId];
    return { runIds: runs, seen: [...this.seen] };
  }

  /** Is a message other than this run's own waiting in the queue to be sent now? */
  async queuedSentNow(): Promise<boolean> {
    return (await this.store.listQueue(this.sessionId)).some((item) => item.sendNow && item.runId !== this.runId);
  }
}
