// A thread's session stream in the browser: everything that happens on the thread, from any
// source, as AG-UI events (docs/internals/architecture.md, "Streams and cursors"). One EventSource on
// GET {url}?threadId=T&offset=C; the browser itself reconnects after a drop and resumes with
// `Last-Event-ID`, so nothing is missed and nothing comes twice.
//
// The feed only sorts what arrives. A run this tab started is on screen from its own response
// and is skipped. Any other run (one another tab started, the continuation of a decision made
// with the CLI or over HTTP, a turn on the OpenAI wire, the run a refreshed page re-joins) is
// handed over as an Observable of its AG-UI events, RUN_STARTED to its end, which the store
// applies through the same @ag-ui/client pipeline as a run of its own. A decision made outside
// any run is reported on its own: it is not part of a run, so no run pipeline would take it
// (a decision a run carries reaches the store through that run's pipeline).
import { EventType, PROTOCOL_VERSION, type BaseEvent, type CustomEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { ReplaySubject, type Observable } from 'rxjs';
import { INTERRUPT_DECIDED, INTERRUPT_VOTES, QUEUE_CHANGED, TOOLS_STOPPED, type QueueItem } from '@/server/contract';

/** What the feed needs of the browser's EventSource (tests pass their own). */
export interface EventSourceLike {
  onmessage: ((message: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
  readonly readyState: number;
  close(): void;
}

export interface SessionFeedOptions {
  /** The agent's AG-UI route. */
  url: string;
  threadId: string;
  /** Where the stream starts: the cursor the page was rendered at, or -1 for the whole thread. */
  cursor: string;
  /** A run already under way at the cursor: its start is before the cursor, the rest follows. */
  activeRunId?: string | null;
  /** Runs this tab started itself. */
  isOwnRun: (runId: string) => boolean;
  /**
   * Another run of the thread, as events (replayed from RUN_STARTED to whoever subscribes)
   * and their cursors in the same order, both filled as they arrive.
   */
  onRun: (runId: string, events: Observable<BaseEvent>, cursors: (string | undefined)[]) => void;
  /** A decision made outside any run: its card goes; onToolOutcome has the whole of it. */
  onInterruptDecided: (interruptId: string) => void;
  /** A vote toward a quorum, wherever it was cast: every vote so far, as this reader may see them. */
  onInterruptVotes?: (interruptId: string, votes: unknown[]) => void;
  /** A `stackbone.interrupt_decided` or `stackbone.tools_stopped` outside any run, as sent. */
  onToolOutcome: (name: string, value: unknown) => void;
  /** The thread's message queue, whenever it changes (it is not part of any run). */
  onQueue?: (queue: QueueItem[]) => void;
  createEventSource?: (url: string) => EventSourceLike;
}

const CLOSED = 2;

export class SessionFeed {
  private source: EventSourceLike | null = null;
  /** The id of the last event received: a reopened feed resumes after it. */
  private lastEventId: string;
  /** The run whose events are arriving now, and where they go (nowhere for this tab's own run). */
  private current: { runId: string; events: ReplaySubject<BaseEvent>; cursors: (string | undefined)[] } | { runId: string; events: null } | null = null;

  constructor(private readonly options: SessionFeedOptions) {
    this.lastEventId = options.cursor;
    if (options.activeRunId) {
      // The page was rendered mid-run: the run's RUN_STARTED is behind the cursor, so the
      // feed opens it here; what the page did not render arrives next.
      this.beginRun({ type: EventType.RUN_STARTED, threadId: options.threadId, runId: options.activeRunId } as BaseEvent);
    }
  }

  /** Starts (or, after close(), resumes) listening from the last event received. */
  open(): void {
    if (this.source) return;
    // The protocol HttpAgent speaks, so interrupts come in the shape it reads without warnings.
    const query = new URLSearchParams({ threadId: this.options.threadId, offset: this.lastEventId, protocolVersion: PROTOCOL_VERSION });
    const url = `${this.options.url}${this.options.url.includes('?') ? '&' : '?'}${query}`;
    const source = (this.options.createEventSource ?? ((href) => new EventSource(href)))(url);
    source.onmessage = (message) => {
      if (message.lastEventId) this.lastEventId = message.lastEventId;
      this.receive(message.data, message.lastEventId || undefined);
    };
    // A dropped connection is retried by the EventSource itself. A refused one (the thread is
    // gone, the identity changed) closes it for good: the page's own runs still work, and a
    // reload shows the thread as the server has it.
    source.onerror = () => {
      if (source.readyState === CLOSED && this.source === source) this.source = null;
    };
    this.source = source;
  }

  /** Stops listening. A run in progress stays open: open() continues it where it was. */
  close(): void {
    this.source?.close();
    this.source = null;
  }

  private receive(data: string, cursor: string | undefined): void {
    let event: BaseEvent;
    try {
      const parsed = EventSchemas.safeParse(JSON.parse(data));
      if (!parsed.success) return;
      event = parsed.data as BaseEvent;
    } catch {
      return; // not JSON: nothing a client could apply
    }
    switch (event.type) {
      case EventType.RUN_STARTED:
        this.beginRun(event, cursor);
        return;
      case EventType.RUN_FINISHED:
      case EventType.RUN_ERROR:
        this.forward(event, cursor);
        this.current?.events?.complete();
        this.current = null;
        return;
      case EventType.CUSTOM: {
        const { name, value } = event as CustomEvent;
        if (!this.current && name === INTERRUPT_DECIDED && typeof value?.interruptId === 'string') {
          this.options.onInterruptDecided(value.interruptId);
          this.options.onToolOutcome(name, value);
          return;
        }
        if (name === INTERRUPT_VOTES && typeof value?.interruptId === 'string' && Array.isArray(value.votes)) {
          this.options.onInterruptVotes?.(value.interruptId, value.votes);
          return;
        }
        if (!this.current && name === TOOLS_STOPPED) {
          this.options.onToolOutcome(name, value);
          return;
        }
        if (name === QUEUE_CHANGED && Array.isArray(value?.queue)) {
          this.options.onQueue?.(value.queue as QueueItem[]);
          return;
        }
        break;
      }
    }
    this.forward(event, cursor);
  }

  /** Hands an event of the current run on (nowhere, if the run is this tab's own). */
  private forward(event: BaseEvent, cursor: string | undefined): void {
    if (!this.current?.events) return;
    this.current.cursors.push(cursor);
    this.current.events.next(event);
  }

  private beginRun(event: BaseEvent, cursor?: string): void {
    const { runId } = event as BaseEvent & { runId: string };
    // A run ends before the next starts; an unfinished one here was cut short by the server.
    this.current?.events?.complete();
    if (this.options.isOwnRun(runId)) {
      this.current = { runId, events: null };
      return;
    }
    this.current = { runId, events: new ReplaySubject<BaseEvent>(), cursors: [] };
    this.forward(event, cursor);
    this.options.onRun(runId, this.current.events, this.current.cursors);
  }
}
