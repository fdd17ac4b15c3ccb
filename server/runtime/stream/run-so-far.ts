// One run as the log holds it now, without waiting for more: the Responses wire's poll
// (GET /api/v1/responses/{id}) and the check that a run exists before following it
// (docs/internals/wires.md, "The Responses wire"). The parts are the ones follow() replays, under the
// same cursors, so a poll and a stream tell the same story.
import type { SessionEvent } from '../../store/events';
import type { JsonObject } from '../../store/messages';
import type { EventStore } from '../../store/types';
import { emptyView } from '../session';
import { LogProjector } from './log-projector';
import { endsRun, type StreamPart } from './parts';

export interface RunSoFar {
  /** When the log recorded the run's start (ISO). */
  startedAt: string;
  /** The session's run before this one, if any: the run this one continues. */
  previousRunId: string | null;
  /** The run's parts written so far, in order. */
  parts: StreamPart[];
  /** The run has written its last event. */
  ended: boolean;
  /** What the run started with, in order: the client's messages and tool results, the decisions it resumes with. */
  inputs: RunInput[];
}

export type RunInput = Extract<SessionEvent, { type: 'message_added' | 'interrupt_decided' }>;

/** The run's parts in the log now; null when the session has no run of that id. */
export async function runSoFar(store: EventStore, sessionId: string, runId: string, initialState: JsonObject): Promise<RunSoFar | null> {
  const projector = new LogProjector(sessionId, emptyView(initialState));
  let startedAt: string | undefined;
  let previousRunId: string | null = null;
  const parts: StreamPart[] = [];
  const inputs: RunInput[] = [];
  /** How many of the events after the run's start are its input (run_started.inputs). */
  let opening = 0;
  for (const stored of await store.readEvents(sessionId)) {
    const { event } = stored;
    if (opening > 0) {
      opening--;
      if (event.type === 'message_added' || event.type === 'interrupt_decided') inputs.push(event);
    }
    if (event.type === 'run_started' && startedAt === undefined) {
      if (event.runId === runId) {
        startedAt = stored.at;
        opening = event.inputs ?? 0;
      } else previousRunId = event.runId;
    }
    for (const entry of projector.project(stored)) if (entry.runId === runId && entry.cursor !== undefined) parts.push(entry);
  }
  if (startedAt === undefined) return null;
  return { startedAt, previousRunId, parts, inputs, ended: parts.some((entry) => endsRun(entry.part)) };
}
