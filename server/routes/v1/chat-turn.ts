// The one handler behind POST /api/v1/chat/completions and POST /api/v1/messages: who asks,
// which session, parse, find the agent, start the turn (durable on a session, or stateless),
// then answer as a stream or whole. Each wire gives only its own shapes (docs/internals/wires.md).
import { findAgent } from '../../agents';
import type { DeepAgent } from '../../authoring';
import { readJsonBody } from '../../http/body';
import { HttpError } from '../../http/errors';
import type { KeepAlive } from '../../http/keep-alive';
import { takeStreamSlot, type StreamSlot } from '../../http/limits';
import { resolveOwner } from '../../identity/owner';
import { sseResponse } from '../../http/sse';
import { openSession, pendingInterrupts, scopedSessionId, startRun, startStatelessRun, type ClientTool, type StartedRun } from '../../runtime';
import { getStore } from '../../store';
import { checkRequestTools, newInput, statelessHistory, type WireMessage } from '../../wire/chat/chat-turn';
import { readModelHeader } from '../../wire/chat/model-header';
import { readSessionKey, SESSION_HEADER, turnHeaders } from '../../wire/chat/session-key';
import { collectChatTurn, type CollectedTurn } from '../../wire/chat/turn-events';
import { jsonResponse } from '../../http/small-answers';

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

export async function handleChatTurn<Input extends ChatRequest, Meta, Chunk>(
  request: Request,
  keepAlive: KeepAlive,
  wire: ChatWire<Input, Meta, Chunk>,
): Promise<Response> {
  let slot: StreamSlot | undefined;
  try {
    const ownerId = await resolveOwner(request);
    const sessionKey = readSessionKey(request);
    const model = readModelHeader(request);
    const input = wire.parse(await readJsonBody(request));
    const agent = findAgent(input.model);
    if (!agent) throw wire.modelNotFound(input.model);
    const clientTools = checkRequestTools(agent, input.tools);
    // A streamed turn is an open stream: 429 when the owner has the most open, before the turn starts (docs/security.md).
    if (input.stream) slot = takeStreamSlot(ownerId);
    const run = await startChatTurn({ agent, ownerId, source: wire.source, sessionKey, model, history: input.messages, clientTools, signal: request.signal });
    // A durable turn goes on if the client leaves; a stateless one ends with its request.
    keepAlive(run.done);
    const meta = wire.meta(run, agent.name);
    const headers = { ...turnHeaders(run, sessionKey), [wire.requestIdHeader]: run.runId };

    if (input.stream) return withHeaders(sseResponse(wire.chunks(run, meta, input), wire.encode, { slot }), headers);
    const turn = await collectChatTurn(run);
    if (turn.error) return withHeaders(wire.errorResponse(new HttpError(turn.error.code, turn.error.message)), headers);
    return jsonResponse(wire.body(turn, meta), { headers });
  } catch (error) {
    slot?.release();
    return wire.errorResponse(error);
  }
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

interface ChatTurnRequest {
  agent: DeepAgent;
  ownerId: string;
  source: 'openai' | 'anthropic';
  /** Present: the turn is durable on this session. Absent: stateless. */
  sessionKey?: string;
  /** The agent's model the client chose (x-stackbone-model), else the thread's. */
  model?: string;
  /** The request's conversation, in order. */
  history: WireMessage[];
  clientTools: ClientTool[];
  signal?: AbortSignal;
}

/**
 * Starts the turn. Durable: only the request's new trailing input goes to the runtime, which
 * refuses (Refusal, nothing written) when the session may not take it — e.g. 409
 * `interrupts_pending` while a decision is open. Stateless: the whole history is the log.
 */
async function startChatTurn(request: ChatTurnRequest): Promise<StartedRun> {
  const { agent, ownerId, source, sessionKey, clientTools, signal, model } = request;
  if (!sessionKey) {
    const durableHint = `Send the header ${SESSION_HEADER}: <a conversation id> to keep the conversation on the server, where a person can approve it.`;
    return startStatelessRun({ agent, ownerId, source, history: statelessHistory(request.history), clientTools, signal, durableHint, model });
  }
  const store = getStore();
  const sessionId = scopedSessionId(ownerId, sessionKey);
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const messages = newInput(request.history, view);
  // With nothing new and nothing the session waits for, there is no turn to run. (When it
  // waits on a decision or a client tool result, the runtime answers with its own 409.)
  if (messages.length === 0 && pendingInterrupts(view).length === 0 && view.openToolCalls.length === 0) {
    throw new HttpError(
      'no_new_input',
      `messages: nothing new for session "${sessionKey}": the server keeps its history, so end the request with a new user message (or the results of the client tool calls it asked for).`,
      { param: 'messages' },
    );
  }
  // A message sent while a turn runs waits for it and is answered in its turn; one sent while a
  // decision is pending is refused (approval_pending), as these wires always have.
  return startRun({ agent, store, sessionId, ownerId, durable: true, source, messages, clientTools, signal, queue: 'running', model });
}
