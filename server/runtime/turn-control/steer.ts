// Steering a running turn (docs/turn-control.md, "Steer"): guidance a person adds while the
// agent works. It is kept beside the log, like a stop — a running run holds the head — and the
// run takes it into the conversation at its next step boundary: before its next model call,
// or, if the model had just answered, by going on with one more step. Not a new turn. A steer
// names its run, so guidance meant for a turn that ended is refused, never applied to the next.
import type { FindAgent } from '../../authoring';
import type { ChatMessage } from '../../store/messages';
import { LimitReachedError, type EventStore, type SteerRecord } from '../../store/types';
import { Refusal } from '../errors';
import { runInProgress } from './run-in-progress';
import { sessionKeyOf, checkClientId, checkNewMessages, limitRefusal, maxSteersPerRun } from '../session';

export interface SteerRequest {
  sessionId: string;
  ownerId: string;
  /** The agent the client addressed: a session of another agent is not found. */
  agent?: string;
  /** The run to steer; the session's running run when absent. */
  runId?: string;
  message: ChatMessage;
}

export async function requestSteer(store: EventStore, findAgent: FindAgent, request: SteerRequest): Promise<SteerRecord> {
  if (request.runId !== undefined) checkClientId(request.runId, 'runId', 'invalid_run_id');
  const { session, running } = await runInProgress(store, findAgent, request);
  const sessionId = session.id;
  if (!running)
    throw new Refusal('not_running', `Session "${sessionKeyOf(sessionId)}" has no run in progress to steer; send the message as a turn of its own.`);
  if (request.runId && request.runId !== running) {
    throw new Refusal('other_run', `Run "${request.runId}" is not the run in progress on "${sessionKeyOf(sessionId)}"; the guidance was not added.`, {
      runningRunId: running,
    });
  }
  if (request.message.role !== 'user' || !request.message.content.trim()) {
    throw new Refusal('invalid_message', 'Steering guidance is a user message with text.');
  }
  checkNewMessages(session, [request.message]);
  // Counted and written as one step by the store: guidance sent at the same moment cannot pass the limit together.
  const limit = maxSteersPerRun();
  try {
    return await store.addSteer({ sessionId, runId: running, message: request.message, limit });
  } catch (error) {
    if (!LimitReachedError.is(error)) throw error;
    throw limitRefusal({
      code: 'too_many_steers',
      noun: 'Guidance for one run',
      limit,
      held: error.held,
      adding: 1,
      advice: 'Stop the run and send a new message instead; the guidance was not added.',
    });
  }
}
