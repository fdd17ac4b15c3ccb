// The one handler behind POST /api/v1/chat/completions and POST /api/v1/messages: who asks,
// which session, parse, find the agent, start the turn, then answer as a stream or whole.
// Each wire gives only its own shapes (docs/wires.md).
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { HttpError } from '../../http/errors';
import type { KeepAlive } from '../../http/keep-alive';
import { takeStreamSlot, type StreamSlot } from '../../http/limits';
import { resolveOwner } from '../../http/owner';
import { sseResponse } from '../../http/sse';
import type { ClientTool , StartedRun } from '../../runtime';
import { checkRequestTools, startChatTurn, type WireMessage } from './chat-turn';
import { readSessionKey, turnHeaders } from './session-key';
import { collectChatTurn, type CollectedTurn } from './turn-events';

/** What every chat request carries once its wire has parsed it. */
export interface ChatRequest {
  model: string;
  stream: boolean;
  messages: WireMessage[];
  tools: { tool: ClientTool; param: string }[];
}

/** A chat API's shapes: its request, its stream, its whole response, its errors. */
export interface ChatWire<Input extends ChatRequest, Meta, Chunk> {
  source: 'openai' | 'anthropic';
  parse: (body: unknown) => Input;
  modelNotFound: (model: string) => HttpError;
  meta: (run: StartedRun, agent: string) => Meta;
  /** The response header this API's SDK reads the request id from. */
  requestIdHeader: string;
  chunks: (run: StartedRun, meta: Meta, input: Input) => AsyncIterable<Chunk>;
  encode: (chunk: Chunk) => string;
  body: (turn: CollectedTurn, meta: Meta) => unknown;
  errorResponse: (error: unknown) => Response;
}

export async function handleChatTurn<Input extends ChatRequest, Meta, Chunk>(request: Request, keepAlive: KeepAlive, wire: ChatWire<Input, Meta, Chunk>): Promise<Response> {
  let slot: StreamSlot | undefined;
  try {
    const ownerId = resolveOwner(request);
    const sessionKey = readSessionKey(request);
    const input = wire.parse(await readJsonBody(request));
    const agent = findAgent(input.model);
    if (!agent) throw wire.modelNotFound(input.model);
    const clientTools = checkRequestTools(agent, input.tools);
    // A streamed turn is an open stream: 429 when the owner has the most open, before the turn starts (docs/security.md).
    if (input.stream) slot = takeStreamSlot(ownerId);
    const run = await startChatTurn({ agent, ownerId, source: wire.source, sessionKey, history: input.messages, clientTools, signal: request.signal });
    // A durable turn goes on if the client leaves; a stateless one ends with its request.
    keepAlive(run.done);
    const meta = wire.meta(run, agent.name);
    const headers = { ...turnHeaders(run, sessionKey), [wire.requestIdHeader]: run.runId };

    if (input.stream) return withHeaders(sseResponse(wire.chunks(run, meta, input), wire.encode, { slot }), headers);
    const turn = await collectChatTurn(run);
    if (turn.error) return withHeaders(wire.errorResponse(new HttpError(turn.error.code, turn.error.message)), headers);
    return Response.json(wire.body(turn, meta), { headers });
  } catch (error) {
    slot?.release();
    return wire.errorResponse(error);
  }
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
