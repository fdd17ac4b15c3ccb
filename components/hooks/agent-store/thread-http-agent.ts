// HttpAgent with two things a durable thread needs on top of it:
// - It applies a run it did not start: a run of the thread that reaches this tab over the
//   session stream (session-feed.ts) — the run a refreshed page re-joins, a turn from another
//   tab, a decision's continuation. `applyRun()` feeds that run's events through connectAgent,
//   so they go through the same pipeline (verification, messages, state, interrupts,
//   subscribers) as the tab's own runs.
// - It knows the cursor of the last event it applied (`frontier`), the SSE `id:` HttpAgent's
//   own parser drops. A Stop names it, so the server keeps exactly the text this tab showed
//   (docs/hitl.md, "Stopping a run").
import { HttpAgent, type BaseEvent, type HttpAgentConfig, type RunAgentInput } from '@ag-ui/client';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { EMPTY, type Observable } from 'rxjs';

type ConnectSubscriber = Parameters<HttpAgent['connectAgent']>[1];

export class ThreadHttpAgent extends HttpAgent {
  /** The events the next connectAgent() applies. */
  private joined: Observable<BaseEvent> | null = null;
  /** The cursor of each event of the current run, in order (undefined for one without). */
  private cursors: (string | undefined)[] = [];
  /** How many events of the current run the pipeline has taken. */
  private applied = 0;

  constructor(config: HttpAgentConfig) {
    super(config);
    const send = this.fetch;
    this.fetch = async (url, init) => this.readCursors(await send(url, init));
    this.subscribe({
      onEvent: () => {
        this.applied++;
      },
    });
  }

  /** The cursor of the last event applied of the current (or last) run; null before any. */
  get frontier(): string | null {
    for (let i = Math.min(this.applied, this.cursors.length) - 1; i >= 0; i--) {
      if (this.cursors[i]) return this.cursors[i]!;
    }
    return null;
  }

  runAgent(...args: Parameters<HttpAgent['runAgent']>) {
    this.cursors = [];
    this.applied = 0;
    return super.runAgent(...args);
  }

  /**
   * Applies a run's events as they arrive; resolves when the run ends (or is detached).
   * `cursors` holds each event's cursor in the same order, filled as they arrive.
   */
  async applyRun(runId: string, events: Observable<BaseEvent>, cursors: (string | undefined)[], subscriber?: ConnectSubscriber) {
    this.joined = events;
    this.cursors = cursors;
    this.applied = 0;
    try {
      return await this.connectAgent({ runId }, subscriber);
    } finally {
      this.joined = null;
    }
  }

  protected connect(_input: RunAgentInput): Observable<BaseEvent> {
    return this.joined ?? EMPTY;
  }

  /** Reads the event ids of a run's response beside HttpAgent, which gets the same bytes. */
  private readCursors(response: Response): Response {
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    const [forAgent, forCursors] = response.body.tee();
    const cursors = this.cursors;
    void forCursors
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .pipeTo(new WritableStream({ write: (event) => void cursors.push(event.id) }))
      .catch(() => undefined); // the run's own stream reports a cut connection
    return new Response(forAgent, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
