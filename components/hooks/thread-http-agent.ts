// HttpAgent that can also apply a run it did not start: a run of the thread that reaches this
// tab over the session stream (session-feed.ts) — the run a refreshed page re-joins, a turn
// from another tab, a decision's continuation. `connectAgent()` takes that run's events in
// place of a request of its own, so they go through the same pipeline (verification,
// messages, state, interrupts, subscribers) as the tab's own runs.
import { HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { EMPTY, type Observable } from 'rxjs';

export class ThreadHttpAgent extends HttpAgent {
  /** The events the next connectAgent() applies. */
  private joined: Observable<BaseEvent> | null = null;

  /** Applies a run's events as they arrive; resolves when the run ends (or is detached). */
  async applyRun(runId: string, events: Observable<BaseEvent>, subscriber?: Parameters<HttpAgent['connectAgent']>[1]) {
    this.joined = events;
    try {
      return await this.connectAgent({ runId }, subscriber);
    } finally {
      this.joined = null;
    }
  }

  protected connect(_input: RunAgentInput): Observable<BaseEvent> {
    return this.joined ?? EMPTY;
  }
}
