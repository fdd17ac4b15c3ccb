// HttpAgent that can also re-join a run already going on the server: `connectAgent()` reads
// the run's stream from its start (GET ?threadId&runId&offset=-1; docs/architecture.md,
// "Streams and cursors") and applies it like a run of its own. A refresh mid-turn uses it.
import { HttpAgent, runHttpRequest, transformHttpEventStream, type RunAgentInput } from '@ag-ui/client';

export class ThreadHttpAgent extends HttpAgent {
  /** The run the next connectAgent() joins. */
  joinRunId: string | null = null;

  protected connect(input: RunAgentInput) {
    // A fresh controller: an earlier run's or join's abort must not cut this one.
    this.abortController = new AbortController();
    const query = new URLSearchParams({ threadId: input.threadId, runId: this.joinRunId ?? input.runId, offset: '-1' });
    const url = `${this.url}${this.url.includes('?') ? '&' : '?'}${query}`;
    const { signal } = this.abortController;
    return transformHttpEventStream(runHttpRequest(() => this.fetch(url, { method: 'GET', headers: { ...this.headers, Accept: 'text/event-stream' }, signal })), this.debugLogger);
  }
}
