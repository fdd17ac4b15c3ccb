// The OpenAI-compatible wire (docs/wires.md): POST /api/v1/chat/completions, GET /api/v1/models.
// Parse, hand to the runtime through the shared chat-turn code, translate.
import { agents, findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { HttpError, unknownEndpoint } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../http/owner';
import { sseResponse } from '../../http/sse';
import { checkClientTools, collectChatTurn, readSession, readSessionKey, runErrorStatus, startChatTurn, turnHeaders } from '../sessions';
import { openAiErrorResponse } from './errors';
import { parseChatCompletionRequest } from './input';
import { chatCompletion, completionChunks, completionMeta, DONE, toOpenAiSession } from './output';

export function modelNotFound(model: string): HttpError {
  return new HttpError(404, 'model_not_found', `The model '${model}' does not exist: the models are the agents (${agents.map((agent) => agent.name).join(', ')}).`, { param: 'model' });
}

export async function handleChatCompletions(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    const ownerId = resolveOwner(request);
    const sessionKey = readSessionKey(request);
    const input = parseChatCompletionRequest(await readJsonBody(request));
    const agent = findAgent(input.model);
    if (!agent) throw modelNotFound(input.model);
    const clientTools = checkClientTools(agent, input.tools);
    const run = await startChatTurn({ agent, ownerId, source: 'openai', sessionKey, history: input.messages, clientTools, signal: request.signal });
    // A durable turn goes on if the client leaves; a stateless one ends with its request.
    keepAlive(run.done);
    const meta = completionMeta(run, agent.name);
    const headers = { ...turnHeaders(run, sessionKey), 'x-request-id': run.runId };

    if (input.stream) {
      const response = sseResponse(completionChunks(run, meta, input.includeUsage), (chunk) => `data: ${chunk === DONE ? DONE : JSON.stringify(chunk)}\n\n`);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
    const turn = await collectChatTurn(run);
    if (turn.error) {
      const error = new HttpError(runErrorStatus(turn.error.code), turn.error.code, turn.error.message);
      const response = openAiErrorResponse(error);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    }
    return Response.json(chatCompletion(turn, meta), { headers });
  } catch (error) {
    return openAiErrorResponse(error);
  }
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
export async function handleOpenAiSession(request: Request, key: string): Promise<Response> {
  try {
    const snapshot = await readSession(resolveOwner(request), key);
    if (!snapshot) throw new HttpError(404, 'session_not_found', `No session "${key}".`);
    return Response.json(toOpenAiSession(snapshot), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return openAiErrorResponse(error);
  }
}

/** Anything else under /api/v1: 404, or 405 on a known path with another method. */
export function openAiNotFound(request: Request, allow?: string): Response {
  return unknownEndpoint(request, allow, openAiErrorResponse);
}
