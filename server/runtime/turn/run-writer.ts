// A run's writes to its session's log (docs/internals/architecture.md, "The life of a run"): one at a
// time, in the order asked, each at the head the one before it left — concurrent tool calls
// write through here too — and the lease renewed in the same queue, so a renewal never races
// the run's own append. A run that lost the session (another process took it over) writes
// nothing more, whatever its tools still hand back.
import type { SessionEvent } from '../../store/events';
import { ConcurrentAppendError, type AppendOptions, type EventStore } from '../../store/types';
import { LeaseLostError } from '../errors';
import { foldEvents, leaseMs, type SessionView } from '../session';
import { LogProjector, type RunFeed } from '../stream';

/**
 * What a run's write may set beside its events: the title of a new thread, and the session itself
 * when it is new; and what refuses it: guidance the run has not read (UnseenGuidanceError).
 */
export type RunAppendOptions = Pick<AppendOptions, 'title' | 'create' | 'unlessGuidance'>;

export class RunWriter {
  private readonly projector: LogProjector;
  private writing: Promise<void> = Promise.resolve();
  /** Another run took the session (this process stalled past its lease): set once, never cleared. */
  private lost = false;

  constructor(
    private readonly store: EventStore,
    private readonly sessionId: string,
    /** The thread as this run last wrote it. */
    public view: SessionView,
    /** Where what the written events show is streamed. */
    private readonly feed: RunFeed,
    /** Told once, when the lease is lost. */
    private readonly onLost: () => void,
  ) {
    this.projector = new LogProjector(sessionId, view);
  }

  /** Appends events (or what the current view makes of a function) after the writes before it. */
  append(events: SessionEvent[] | ((view: SessionView) => SessionEvent[]), options: RunAppendOptions = {}): Promise<void> {
    const write = this.writing.then(() => this.write(typeof events === 'function' ? events(this.view) : events, options));
    this.writing = write.catch(() => undefined);
    return write;
  }

  /**
   * The run's first append, with the view it makes in place at once: the run goes on from that
   * view while the append commits (turn-runner.ts, startWhileAppending); it resolves once the
   * append's parts are in the feed. Writes asked meanwhile wait for it; if it fails, for whatever
   * reason, the run writes nothing more.
   */
  appendAhead(events: SessionEvent[], options: RunAppendOptions): Promise<void> {
    const base = this.view;
    const next = foldEvents(base, events);
    this.view = next;
    const write = this.writing.then(() => this.write(events, options, base, next));
    this.writing = write.catch(() => undefined);
    return write.catch((error: unknown) => {
      this.loseLease();
      throw error;
    });
  }

  /** Renews the lease at the head this run last wrote, after its writes in flight. */
  renewLease(): Promise<boolean> {
    const renewal = this.writing.then(() => (this.lost ? false : this.store.renewLease(this.sessionId, this.view.seq, new Date(Date.now() + leaseMs()))));
    this.writing = renewal.then(
      () => undefined,
      () => undefined,
    );
    return renewal;
  }

  /** The session is another run's now: nothing more is written, and the run is told once. */
  loseLease(): void {
    if (this.lost) return;
    this.lost = true;
    this.onLost();
  }

  /** `base`: the view the events are written on (this run's last, unless an append ahead set the next already). */
  private async write(events: SessionEvent[], options: RunAppendOptions, base = this.view, next = foldEvents(base, events)): Promise<void> {
    if (this.lost) throw new LeaseLostError(this.sessionId);
    const running = next.status === 'running';
    let at: string;
    try {
      ({ at } = await this.store.append(this.sessionId, base.seq, events, {
        status: next.status,
        leaseUntil: running ? new Date(Date.now() + leaseMs()) : null,
        ...(options.title ? { title: options.title } : {}),
        ...(options.create ? { create: options.create } : {}),
        ...(options.unlessGuidance ? { unlessGuidance: options.unlessGuidance } : {}),
      }));
    } catch (error) {
      // Someone else moved the head under a running run: the session is theirs now.
      if (ConcurrentAppendError.is(error)) this.loseLease();
      throw error;
    }
    // Stamped as the log stamps them, so the live parts are the replayed ones (a decision's time).
    events.forEach((event, index) => {
      for (const part of this.projector.project({ seq: base.seq + index + 1, at, event })) this.feed.push(part);
    });
    this.view = next;
  }
}
