// Stopping a run (docs/hitl.md, "Stopping a run"). A stop is a persisted input: it is kept
// beside the log, every process's run sees it through the store's watch, and the run that
// it names ends as cancelled, keeping what the user saw. It names its run, so a stop meant
// for an older turn cannot cancel a newer one; the first stop of a run is the only one.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../define';
import type { EventStore, SessionRecord, StopRecord } from '../../store/types';
import { RunRejectedError } from '../errors/run-errors';
import type { SessionEvent, ToolCall } from '../../events';
import type { SessionView } from '../session/reduce';
import { loadView } from '../session/view-cache';
import { sessionKeyOf } from '../session/session-id';

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

export async function requestStop(store: EventStore, findAgent: (name: string) => DeepAgent | undefined, request: StopRequest): Promise<StopResult> {
  const { sessionId, running } = await runInProgress(store, findAgent, request);
  const runId = request.runId ?? running ?? null;
  if (!runId || !running) return { sessionId, runId, stopped: false, reason: 'not_running' };
  if (runId !== running) return { sessionId, runId, stopped: false, reason: 'other_run' };
  const record = await store.requestStop({ sessionId, runId, frontier: request.frontier ?? null, by: request.by });
  return { sessionId, runId, stopped: true, record };
}

/**
 * The session a stop or a steer names, as its owner (and the agent addressed, if any) sees it
 * — another's is not found — and the run in progress on it, if one is.
 */
export async function runInProgress(
  store: EventStore,
  findAgent: (name: string) => DeepAgent | undefined,
  request: { sessionId: string; ownerId: string; agent?: string },
): Promise<{ sessionId: string; running: string | undefined }> {
  const session = await ownedSession(store, request);
  const view = await loadView(store, session.id, findAgent(session.agent)?.initialState ?? {});
  return { sessionId: session.id, running: view.status === 'running' ? view.lastRun?.runId : undefined };
}

/** The session a request names, as its owner (and the agent addressed, if any) sees it; another's is not found. */
export async function ownedSession(store: EventStore, request: { sessionId: string; ownerId: string; agent?: string }): Promise<SessionRecord> {
  const session = await store.getSession(request.sessionId);
  if (!session || session.ownerId !== request.ownerId || (request.agent && session.agent !== request.agent)) {
    throw new RunRejectedError('not_found', `No session "${sessionKeyOf(request.sessionId)}"${request.agent ? ` for agent "${request.agent}"` : ''}.`, 404);
  }
  return session;
}

/**
 * The events that close a stopped run whose process died before it could: every root tool
 * call left open is closed as not run, and the run finishes cancelled. Empty when the
 * session's last run is not a stopped, abandoned one.
 */
export async function settleStoppedRun(store: EventStore, sessionId: string, view: SessionView): Promise<SessionEvent[]> {
  const run = view.lastRun;
  if (view.status !== 'running' || !run) return [];
  const stop = await store.findStop(sessionId, run.runId);
  if (!stop) return [];
  return [...notRunResults(view.openToolCalls), { type: 'run_finished', runId: run.runId, outcome: { type: 'cancelled' }, stop: { frontier: stop.frontier, by: stop.by } }];
}

/** A stopped run closes the calls it leaves open, so none of them runs on the next message. */
export function notRunResults(calls: ToolCall[]): SessionEvent[] {
  return calls.map((call) => ({
    type: 'tool_result',
    message: { id: randomUUID(), role: 'tool', toolCallId: call.id, toolName: call.name, content: 'Not run: the run was stopped before this call started.', isError: true },
    output: null,
    status: 'cancelled',
  }));
}
