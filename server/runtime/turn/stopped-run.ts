// What a stop leaves behind (docs/hitl.md, "Stopping a run"): the calls a stopped run left open
// are closed as not run, and the run finishes cancelled — by the run itself when it sees the
// stop, or by whoever next takes the session when the stopped run's process died first.
import { randomUUID } from 'node:crypto';
import type { SessionEvent } from '../../store/events';
import type { ToolCall } from '../../store/messages';
import type { EventStore } from '../../store/types';
import type { SessionView } from '../session';

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
  return [
    ...notRunResults(view.openToolCalls),
    { type: 'run_finished', runId: run.runId, outcome: { type: 'cancelled' }, stop: { frontier: stop.frontier, by: stop.by } },
  ];
}

/**
 * A stopped run closes the calls it leaves open, so none of them runs on the next message; a fork
 * closes those it copied without a result the same way, saying why (docs/time-travel.md).
 */
export function notRunResults(calls: ToolCall[], why = 'Not run: the run was stopped before this call started.', scope?: string): SessionEvent[] {
  return calls.map((call) => ({
    type: 'tool_result',
    message: {
      id: randomUUID(),
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: why,
      isError: true,
    },
    output: null,
    status: 'cancelled',
    ...(scope ? { scope } : {}),
  }));
}
