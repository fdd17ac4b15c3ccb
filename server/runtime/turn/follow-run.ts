// Following a run that already started, from its start: live while it runs, replayed from the
// log once it ended — for a request that found its run started elsewhere (a resent retry, a
// queued message that went out).
import type { CursorPosition } from '../stream';
import { follow } from '../stream';
import type { RunRequest, StartedRun } from './run-request';

/** A run that already started, followed from its start: live while it runs, replayed once it ended. */
export function followRun(request: RunRequest, runId: string): StartedRun {
  const { store, sessionId, agent } = request;
  const stream = (after?: CursorPosition | null, signal?: AbortSignal) =>
    follow({ store, sessionId, initialState: agent.initialState, after: after ?? null, runId, signal });
  return {
    sessionId,
    runId,
    parts: {
      async *[Symbol.asyncIterator]() {
        for await (const entry of stream()) yield entry.part;
      },
    },
    stream,
    // The run was started (and is kept alive) by the request that started it.
    done: Promise.resolve(),
  };
}
