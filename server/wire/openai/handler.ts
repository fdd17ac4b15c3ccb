// The OpenAI-compatible wire (docs/wires.md): POST /api/v1/chat/completions, GET /api/v1/models.
// The request and the turn go through the shared chat handler (wire/chat/); this file gives the shapes.
import { agents, findAgent } from '../../agents';
import { HttpError, unknownEndpoint } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../http/owner';
import { handleChatTurn } from '../chat/handle-chat-turn';
import { handleSessionRead } from '../chat/session-snapshot';
import { openAiErrorResponse } from './errors';
import { parseChatCompletionRequest } from './input';
import { chatCompletion, completionChunks, completionMeta, DONE, toOpenAiSession } from './output';

export function modelNotFound(model: string): HttpError {
  return new HttpError('not_found', `The model '${model}' does not exist: the models are the agents (${agents.map((agent) => agent.name).join(', ')}).`, { what: 'agent', param: 'model' });
}

export function handleChatCompletions(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  return handleChatTurn(request, keepAlive, {
    source: 'openai',
    parse: parseChatCompletionRequest,
    modelNotFound,
    meta: completionMeta,
    requestIdHeader: 'x-request-id',
    chunks: (run, meta, input) => completionChunks(run, meta, input.includeUsage),
    encode: (chunk) => `data: ${chunk === DONE ? DONE : JSON.stringify(chunk)}\n\n`,
    body: chatCompletion,
    errorResponse: openAiErrorResponse,
  });
}

/** When the server started: agents have no creation date, and `created` must be a number. */
const BOOTED = Math.floor(Date.now() / 1000);

function toOpenAiModel(agent: (typeof agents)[number]) {
  return { id: agent.name, object: 'model', created: BOOTED, owned_by: 'stackbone', description: agent.description };
}

export function handleOpenAiModels(request: Request, model?: string): Response {
  try {
    resolveOwner(request);
    if (model === undefined) return Response.json({ object: 'list', data: agents.map(toOpenAiModel) });
    const agent = findAgent(model);
    if (!agent) throw modelNotFound(model);
    return Response.json(toOpenAiModel(agent));
  } catch (error) {
    return openAiErrorResponse(error);
  }
}

/** GET /api/v1/sessions/{key} in OpenAI shape. */
export function handleOpenAiSession(request: Request, key: string): Promise<Response> {
  return handleSessionRead(request, key, { shape: toOpenAiSession, errorResponse: openAiErrorResponse });
}

/** Anything else under /api/v1: 404, or 405 on a known path with another method. */
export function openAiNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, openAiErrorResponse);
}
