// The Anthropic-compatible wire (docs/wires.md): POST /api/v1/messages, and GET /api/v1/models in
// the Models API shape. The request and the turn go through the shared chat handler (wire/chat/); this file gives the shapes.
import { agents, findAgent } from '../../agents';
import { HttpError, unknownEndpoint } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../http/owner';
import { handleChatTurn } from '../chat/handle-chat-turn';
import { handleSessionRead } from '../chat/session-snapshot';
import { anthropicErrorResponse } from './errors';
import { parseMessagesRequest } from './input';
import { encodeEvent, message, messageEvents, messageMeta, toAnthropicSession } from './output';

function modelNotFound(model: string): HttpError {
  return new HttpError('not_found', `model: ${model} is not an agent here (the models are ${agents.map((agent) => agent.name).join(', ')}).`, { what: 'agent', param: 'model' });
}

export function handleMessages(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  // resolveOwner reads both x-api-key and Authorization: Bearer.
  return handleChatTurn(request, keepAlive, {
    source: 'anthropic',
    parse: parseMessagesRequest,
    modelNotFound,
    meta: messageMeta,
    requestIdHeader: 'request-id',
    chunks: (run, meta) => messageEvents(run, meta),
    encode: encodeEvent,
    body: message,
    errorResponse: anthropicErrorResponse,
  });
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
export function handleAnthropicSession(request: Request, key: string): Promise<Response> {
  return handleSessionRead(request, key, { shape: toAnthropicSession, errorResponse: anthropicErrorResponse });
}

/** Anything else under /api/v1: 404, or 405 on a known path with another method. */
export function anthropicNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, anthropicErrorResponse);
}
