// GET /api/v1/responses/{id}: the response as the log holds it (a poll), or with ?stream=true
// its events, from `starting_after` on, live until the run ends — on any server, while it runs
// or after (docs/internals/wires.md, "The Responses wire").
import { HttpError } from '../../../http/errors';
import { takeStreamSlot, type StreamSlot } from '../../../http/limits';
import { sseResponse } from '../../../http/sse';
import { resolveOwner } from '../../../identity/owner';
import { follow } from '../../../runtime';
import { turnHeaders } from '../../../wire/chat/session-key';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { encodeResponseEvent, responseEvents, ResponseTranslator } from '../../../wire/responses/events';
import { findResponseRun, metaOf, type ResponseRun } from './response-run';
import { jsonResponse } from '../../../http/small-answers';

export async function handleRetrieveResponse(request: Request, id: string): Promise<Response> {
  let slot: StreamSlot | undefined;
  try {
    const ownerId = await resolveOwner(request);
    const query = new URL(request.url).searchParams;
    const after = startingAfter(query.get('starting_after'));
    const found = await findResponseRun(id, ownerId);
    const translator = new ResponseTranslator(metaOf(found));
    const headers = { ...turnHeaders(found, found.sessionKey), 'Cache-Control': 'no-store' };
    if (query.get('stream') === 'true') {
      slot = takeStreamSlot(ownerId);
      const response = sseResponse(responseEvents(runParts(found, request.signal), translator, after), encodeResponseEvent, { slot });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
    for (const entry of found.run.parts) translator.push(entry.part);
    return jsonResponse(translator.response(found.queuedMessageId ? 'queued' : undefined), { headers });
  } catch (error) {
    slot?.release();
    return openAiErrorResponse(error);
  }
}

/** The run's parts from its start, replayed from the log, then live until it ends. */
function runParts({ store, sessionId, runId, agent }: ResponseRun, signal: AbortSignal) {
  return follow({ store, sessionId, runId, initialState: agent.initialState, after: null, signal });
}

function startingAfter(raw: string | null): number {
  if (raw === null) return -1;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new HttpError('invalid_request', "Invalid 'starting_after': a sequence number (an integer from 0).", { param: 'starting_after' });
  }
  return value;
}
