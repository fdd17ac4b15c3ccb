// Stopping a run (docs/hitl.md, "Stopping a run"). A stop is a persisted input: it is kept
// beside the log, every process's run sees it through the store's watch, and the run that
// it names ends as cancelled, keeping what the user saw. It names its run, so a stop meant
// for an older turn cannot cancel a newer one; the first stop of a run is the only one.
import type { FindAgent } from '../../authoring';
import { runInProgress } from './run-in-progress';
import type { EventStore, StopRecord } from '../../store/types';

export interface StopRequest {
  sessionId: string;
  ownerId: string;
  /** The agent the client addressed: a session of another agent is not found. */
  agent?: string;
  /** The run to stop; the session's running run when absent. */
  runId?: string;
  /** The cursor of the last part the client rendered: the partial reply is kept up to it. */
  frontier?: string | null;
  by: { source: string; ownerId?: string };
}

export interface StopResult {
  sessionId: string;
  runId: string | null;
  /** The run was running and now has a stop on record (this one, or an earlier one). */
  stopped: boolean;
  /** Why nothing was stopped, when nothing was. */
  reason?: 'not_running' | 'other_run';
  record?: StopRecord;
}

export async function requestStop(store: EventStore, findAgent: FindAgent, request: StopRequest): Promise<StopResult> {
  const { sessionId, running } = await runInProgress(store, findAgent, request);
  const runId = request.runId ?? running ?? null;
  if (!runId || !running) return { sessionId, runId, stopped: false, reason: 'not_running' };
  if (runId !== running) return { sessionId, runId, stopped: false, reason: 'other_run' };
  const record = await store.requestStop({ sessionId, runId, frontier: request.frontier ?? null, by: request.by });
  return { sessionId, runId, stopped: true, record };
}
