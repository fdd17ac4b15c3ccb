// The run a response id names, for its owner alone (docs/internals/wires.md, "The Responses wire"):
// another owner's id, a stateless response's or one that never was is OpenAI's 404.
import { findAgent } from '../../../agents';
import type { DeepAgent } from '../../../authoring';
import { isOwnSession, runSoFar, scopedSessionId, type RunSoFar } from '../../../runtime';
import { getStore } from '../../../store';
import type { EventStore } from '../../../store/types';
import type { ResponseMeta } from '../../../wire/responses/events';
import { readResponseId, responseId, responseNotFound } from '../../../wire/responses/response-id';

export interface ResponseRun {
  store: EventStore;
  sessionId: string;
  sessionKey: string;
  runId: string;
  agent: DeepAgent;
  run: RunSoFar;
  /** The run has not started: its message waits in the session's queue (docs/turn-control.md, "Queue"), under this id. */
  queuedMessageId?: string;
}

export async function findResponseRun(id: string, ownerId: string, param?: string): Promise<ResponseRun> {
  const { sessionKey, runId } = readResponseId(id, param);
  const store = getStore();
  const sessionId = scopedSessionId(ownerId, sessionKey);
  const session = await store.getSession(sessionId);
  const agent = session && isOwnSession(session, { ownerId }) ? findAgent(session.agent) : undefined;
  if (!agent) throw responseNotFound(id, param);
  // The queue, then the log: a message going out between the two reads is found in the log.
  const waiting = (await store.listQueue(sessionId)).find((entry) => entry.runId === runId);
  const run = await runSoFar(store, sessionId, runId, agent.initialState);
  if (run) return { store, sessionId, sessionKey, runId, agent, run };
  if (!waiting) throw responseNotFound(id, param);
  const queued: RunSoFar = {
    startedAt: waiting.createdAt.toISOString(),
    previousRunId: null,
    parts: [],
    inputs: [{ type: 'message_added', message: waiting.message }],
    ended: false,
  };
  return { store, sessionId, sessionKey, runId, agent, run: queued, queuedMessageId: waiting.message.id };
}

/** What the response says of itself, from the log alone, so that every server says the same. */
export function metaOf(found: Pick<ResponseRun, 'runId' | 'sessionKey' | 'agent' | 'run'>, background = false): ResponseMeta {
  const { run, sessionKey } = found;
  return {
    id: responseId(found.runId, sessionKey),
    model: found.agent.name,
    createdAt: Math.floor(Date.parse(run.startedAt) / 1000),
    background,
    store: true,
    previousResponseId: run.previousRunId ? responseId(run.previousRunId, sessionKey) : null,
  };
}
