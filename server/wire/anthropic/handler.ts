// The Anthropic-compatible wire (docs/wires.md): POST /api/v1/messages, and GET /api/v1/models in
// the Models API shape. Parse, hand to the runtime through the shared chat-turn code, translate.
import { agents, findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { HttpError, unknownEndpoint } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../http/owner';
import { sseResponse } from '../../http/sse';
import { checkClientTools, collectChatTurn, readSession, readSessionKey, runErrorStatus, startChatTurn, turnHeaders } from '../sessions';
import { anthropicErrorResponse } from './errors';
import { parseMessagesRequest } from './input';
import { encodeEvent, message, messageEvents, messageMeta, toAnthropicSession } from './output';

function modelNotFound(model: string): HttpError {
  return new HttpError(404, 'model_not_found', `model: ${model} is not an agent here (the models are ${agents.map((agent) => agent.name).join(', ')}).`, { param: 'model' });
}

export async function handleMessages(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    // resolveOwner reads both x-api-key and Authorization: Bearer.
    const ownerId = resolveOwner(request);
    const sessionKey = readSessionKey(request);
    const input = parseMessagesRequest(await readJsonBody(request));
    const agent = findAgent(input.model);
    if (!agent) throw modelNotFound(input.model);
    const clientTools = checkClientTools(agent, input.tools);
    const run = await startChatTurn({ agent, ownerId, source: 'anthropic', sessionKey, history: input.messages, clientTools, signal: request.signal });
    // A durable turn goes on if the client leaves; a stateless one ends with its request.
    keepAlive(run.done);
    const meta = messageMeta(run, agent.name);
    const headers = { ...turnHeaders(run, sessionKey), 'request-id': run.runId };

    if (input.stream) {
      const response = sseResponse(messageEvents(run, meta), encodeEvent);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
    const turn = await collectChatTurn(run);
    if (turn.error) {
      const response = anthropicErrorResponse(new HttpError(runErrorStatus(turn.error.code), turn.error.code, turn.error.message));
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
    return Response.json(message(turn, meta), { headers });
  } catch (error) {
    return anthropicErrorResponse(error);
  }
}

const BOOTED = new Date().toISOString();

function toAnthropicModel(agent: (typeof agents)[number]) {
  return { type: 'model', id: agent.name, display_name: agent.name, created_at: BOOTED, description: agent.description };
}

export function handleAnthropicModels(request: Request, model?: string): Response {
  try {
    resolveOwner(request);
    if (model !== undefined) {
      const agent = findAgent(model);
      if (!agent) throw modelNotFound(model);
      return Response.json(toAnthropicModel(agent));
    }
    const data = agents.map(toAnthropicModel);
    return Response.json({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  } catch (error) {
    return anthropicErrorResponse(error);
  }
}

/** GET /api/v1/sessions/{key} in Anthropic shape. */
export async function handleAnthropicSession(request: Request, key: string): Promise<Response> {
  try {
    const snapshot = await readSession(resolveOwner(request), key);
    if (!snapshot) throw new HttpError(404, 'session_not_found', `No session "${key}".`);
    return Response.json(toAnthropicSession(snapshot), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return anthropicErrorResponse(error);
  }
}

/** Anything else under /api/v1: 404, or 405 on a known path with another method. */
export function anthropicNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, anthropicErrorResponse);
}
