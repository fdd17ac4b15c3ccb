// POST /api/v1/responses/{id}/cancel: the run's persisted stop (docs/hitl.md, "Stopping a
// run"), answered with the response once the run has ended as cancelled; a response still
// queued behind a running turn leaves the queue. A response that had ended already is answered
// as it stands (docs/internals/wires.md, "The Responses wire").
import { findAgent } from '../../../agents';
import { requestActor } from '../../../identity/decision-actor';
import { resolveCaller } from '../../../identity/owner';
import { changeQueue, follow, requestStop, runSoFar } from '../../../runtime';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { ResponseTranslator } from '../../../wire/responses/events';
import { findResponseRun, metaOf } from './response-run';
import { jsonResponse } from '../../../http/small-answers';

/** How long the answer waits for the stopped run to close itself (a tool has a grace period to settle). */
const CANCEL_WAIT_MS = 10_000;

export async function handleCancelResponse(request: Request, id: string): Promise<Response> {
  try {
    const caller = await resolveCaller(request);
    const found = await findResponseRun(id, caller.ownerId);
    const { store, sessionId, runId, agent } = found;
    if (found.queuedMessageId) {
      // Not started: cancelling it takes its message out of the queue, so it never runs.
      await changeQueue(store, findAgent, { sessionId, ownerId: caller.ownerId, source: 'openai' }, { op: 'remove', messageId: found.queuedMessageId });
      return jsonResponse(new ResponseTranslator(metaOf(found)).response('cancelled'));
    }
    if (!found.run.ended) {
      const stop = await requestStop(store, findAgent, { sessionId, ownerId: caller.ownerId, runId, by: requestActor(request, caller, 'responses') });
      if (stop.stopped) {
        const signal = AbortSignal.any([request.signal, AbortSignal.timeout(CANCEL_WAIT_MS)]);
        for await (const _ of follow({ store, sessionId, runId, initialState: agent.initialState, after: null, signal }));
      }
    }
    const run = (await runSoFar(store, sessionId, runId, agent.initialState)) ?? found.run;
    const translator = new ResponseTranslator(metaOf({ ...found, run }));
    for (const entry of run.parts) translator.push(entry.part);
    return jsonResponse(translator.response());
  } catch (error) {
    return openAiErrorResponse(error);
  }
}
