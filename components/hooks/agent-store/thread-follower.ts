// Follows the thread's session stream (docs/internals/architecture.md, "Every tab is live"): the run the
// server was still working on when the page was rendered (a refresh mid-turn) goes on on
// screen, and so does whatever happens on the thread from then on — a turn from another tab
// or another wire, a decision made with the CLI or over HTTP and its continuation. Runs of
// other sources wait in order for the one on screen to end; the store shows each through the
// same pipeline as its own (replay). A new thread is followed from its first run on.
import type { BaseEvent } from '@ag-ui/client';
import type { Observable } from 'rxjs';
import type { QueueItem } from '@/server/contract';
import { SessionFeed, type EventSourceLike } from './session-feed';

export interface ThreadFollowerHost {
  /** The agent's AG-UI route: the session stream is its GET. */
  readonly url: string;
  readonly threadId: string;
  /** A run is on screen: the next one waits for it. */
  isRunning(): boolean;
  /** Shows a run of another source; the store calls runEnded() when it is over. */
  replay(runId: string, events: Observable<BaseEvent>, cursors: (string | undefined)[]): Promise<void>;
  decidedElsewhere(interruptId: string): void;
  /** The votes so far on an open interrupt, cast wherever (a quorum: docs/approvals.md). */
  votesCast(interruptId: string, votes: unknown[]): void;
  /** A decision or a stop reported outside any run (tool-outcomes.ts). */
  toolOutcome(name: string, value: unknown): void;
  setQueue(queue: QueueItem[]): void;
}

export interface ThreadFollowerOptions {
  /** The session-stream cursor the first paint was rendered at. */
  cursor: string;
  /** A run still going on the server at the first paint. */
  activeRunId: string | null;
  createEventSource?: (url: string) => EventSourceLike;
}

interface OtherRun {
  runId: string;
  events: Observable<BaseEvent>;
  cursors: (string | undefined)[];
}

export class ThreadFollower {
  /** The session stream, once the thread exists and the store is attached. */
  private feed: SessionFeed | null = null;
  private attached = false;
  /** Runs this tab started: the session stream carries them too, and they are skipped there. */
  private readonly ownRuns = new Set<string>();
  /** Runs from the session stream waiting for the one on screen to end, in order. */
  private readonly waiting: OtherRun[] = [];
  private replaying = false;

  constructor(
    private readonly host: ThreadFollowerHost,
    private readonly options: ThreadFollowerOptions,
  ) {}

  /** A run of another source is on screen. */
  get isReplaying(): boolean {
    return this.replaying;
  }

  attach(threadExists: boolean): void {
    this.attached = true;
    if (threadExists || this.options.activeRunId) this.listen();
  }

  /** Stops listening. A run of another source on screen stays open: attach() again continues it. */
  detach(): void {
    this.attached = false;
    this.feed?.close();
  }

  /** A run this tab starts (it names its runs, so the stream's copy is known and skipped). */
  markOwn(runId: string): void {
    this.ownRuns.add(runId);
  }

  /** The server has the thread now (its first run started, a write was taken): others may add to it. */
  threadKnown(): void {
    if (this.attached) this.listen();
  }

  /** The run on screen ended: the next waiting one is shown. */
  runEnded(): void {
    this.replaying = false;
    this.replayNext();
  }

  private listen(): void {
    this.feed ??= new SessionFeed({
      url: this.host.url,
      threadId: this.host.threadId,
      cursor: this.options.cursor,
      activeRunId: this.options.activeRunId,
      isOwnRun: (runId) => this.ownRuns.has(runId),
      onRun: (runId, events, cursors) => {
        this.waiting.push({ runId, events, cursors });
        this.replayNext();
      },
      onInterruptDecided: (interruptId) => this.host.decidedElsewhere(interruptId),
      onInterruptVotes: (interruptId, votes) => this.host.votesCast(interruptId, votes),
      onToolOutcome: (name, value) => this.host.toolOutcome(name, value),
      onQueue: (queue) => this.host.setQueue(queue),
      createEventSource: this.options.createEventSource,
    });
    this.feed.open();
  }

  /** Shows the next run from the session stream, once nothing else is on screen. */
  private replayNext(): void {
    if (this.replaying || this.host.isRunning()) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.replaying = true;
    void this.host.replay(next.runId, next.events, next.cursors);
  }
}
