// POST /api/v1/responses: the OpenAI Responses-compatible wire (docs/internals/wires.md, "The Responses
// wire"). A response is a run of a durable session: a new one, the session of
// `previous_response_id`, or `x-stackbone-session`'s; `store: false` (or a whole conversation
// sent without either) is a stateless turn. The turn starts with the runtime's own functions —
// approvals and answers go in as the run's decisions, through the one decision pipeline — and
// answers as Responses events, a whole response, or at once (background).
import { randomUUID } from 'node:crypto';
import { findAgent } from '../../../agents';
import type { DeepAgent } from '../../../authoring';
import { readJsonBody } from '../../../http/body';
import { HttpError } from '../../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../../http/keep-alive';
import { takeStreamSlot, type StreamSlot } from '../../../http/limits';
import { sseResponse } from '../../../http/sse';
import { requestActor } from '../../../identity/decision-actor';
import { resolveCaller, type Caller } from '../../../identity/owner';
import {
  openSession,
  pendingInterrupts,
  runSoFar,
  scopedSessionId,
  sessionKeyOf,
  startRun,
  startStatelessRun,
  type ClientTool,
  type StartedRun,
} from '../../../runtime';
import { getStore } from '../../../store';
import { checkRequestTools, newInput, statelessHistory } from '../../../wire/chat/chat-turn';
import { readModelHeader } from '../../../wire/chat/model-header';
import { readSessionKey, SESSION_HEADER, turnHeaders } from '../../../wire/chat/session-key';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { openAiModelNotFound } from '../../../wire/openai/models';
import { answersOf } from '../../../wire/responses/decisions';
import { encodeResponseEvent, responseEvents, ResponseTranslator, type ResponseMeta } from '../../../wire/responses/events';
import { parseResponseRequest, type ResponseInput } from '../../../wire/responses/input';
import { readResponseId, responseId } from '../../../wire/responses/response-id';
import { findResponseRun } from './response-run';
import { jsonResponse } from '../../../http/small-answers';

export async function handleCreateResponse(request: Request, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  let slot: StreamSlot | undefined;
  try {
    const caller = await resolveCaller(request);
    const headerKey = readSessionKey(request);
    const model = readModelHeader(request);
    const input = parseResponseRequest(await readJsonBody(request));
    const agent = findAgent(input.model);
    if (!agent) throw openAiModelNotFound(input.model);
    const clientTools = checkRequestTools(agent, input.tools);
    const foreign = input.mcpLabels.find(({ label }) => label !== agent.name);
    if (foreign)
      throw new HttpError('invalid_tool', `${foreign.param}: an mcp tool here is the agent's own tools, so its server_label must be "${agent.name}".`, {
        param: foreign.param,
      });
    const sessionKey = await sessionOf(input, headerKey, caller.ownerId);
    if (input.stream) slot = takeStreamSlot(caller.ownerId);
    const run = await startResponseRun({ request, caller, agent, input, sessionKey, clientTools, model });
    // A durable run goes on when the client leaves; a stateless one ends with its request.
    keepAlive(run.done);
    const meta = await metaFor(run, agent, input, sessionKey);
    const headers = { ...turnHeaders(run, sessionKey), 'x-request-id': run.runId };
    const translator = new ResponseTranslator(meta);
    const events = responseEvents(run.stream(null), translator);
    if (input.stream) return withHeaders(sseResponse(events, encodeResponseEvent, { slot }), headers);
    if (input.background) return jsonResponse(translator.response(run.queued ? 'queued' : 'in_progress'), { headers });
    for await (const _ of events);
    // A run that failed answers as the chat wires do: OpenAI's error, with the code's status (docs/internals/wires.md, "Errors").
    const failed = translator.failure;
    if (failed) return withHeaders(openAiErrorResponse(new HttpError(failed.code, failed.message)), headers);
    return jsonResponse(translator.response(), { headers });
  } catch (error) {
    slot?.release();
    return openAiErrorResponse(error);
  }
}

/**
 * The session the response runs on: the previous response's (its owner's alone), the header's,
 * the one whose approval requests the input answers, or a new one. None — a stateless turn —
 * with `store: false`, or when the input is a whole conversation (earlier assistant turns) and
 * names no session, as a Chat Completions client sends it.
 */
async function sessionOf(input: ResponseInput, headerKey: string | undefined, ownerId: string): Promise<string | undefined> {
  if (input.previousResponseId) {
    const { sessionKey } = readResponseId(input.previousResponseId, 'previous_response_id');
    if (headerKey && headerKey !== sessionKey) {
      throw new HttpError('invalid_request', `previous_response_id belongs to another session than the ${SESSION_HEADER} header names.`, {
        param: 'previous_response_id',
      });
    }
    await findResponseRun(input.previousResponseId, ownerId, 'previous_response_id');
    if (!input.store) throw invalidStore('continues a stored response (previous_response_id)');
    return sessionKey;
  }
  if (!input.store) {
    if (headerKey) throw invalidStore(`names a session (${SESSION_HEADER})`);
    if (input.background) throw invalidStore('runs in the background');
    return undefined;
  }
  if (headerKey) return headerKey;
  const [approval] = input.approvals;
  if (approval) {
    // An approval request's id names its session (OpenAI Agents JS answers one with the whole conversation, not previous_response_id).
    const row = await getStore().findInterrupt(approval.interruptId);
    if (!row || row.ownerId !== ownerId) {
      throw new HttpError('not_found', `No approval request '${approval.interruptId}'.`, { what: 'interrupt', param: 'input' });
    }
    return sessionKeyOf(row.sessionId);
  }
  if (input.carriesHistory) {
    if (input.background) {
      throw new HttpError('invalid_request', 'A background response runs on a stored session: send previous_response_id and the new input only.', {
        param: 'background',
      });
    }
    return undefined;
  }
  return randomUUID();
}

function invalidStore(what: string): HttpError {
  return new HttpError('invalid_request', `store: false is a stateless turn, kept nowhere; this request ${what}, which needs a stored one.`, {
    param: 'store',
  });
}

interface ResponseRunRequest {
  request: Request;
  caller: Caller;
  agent: DeepAgent;
  input: ResponseInput;
  sessionKey: string | undefined;
  clientTools: ClientTool[];
  model: string | undefined;
}

/**
 * Starts the run. Stateless: the input is the whole conversation. Durable: the input's new
 * trailing items, and its answers to the session's open approvals and questions as the run's
 * decisions — the runtime refuses (nothing written) what may not go: an interrupt decided
 * already, say, in Studio (interrupt_already_decided).
 */
async function startResponseRun(turn: ResponseRunRequest): Promise<StartedRun> {
  const { request, caller, agent, input, sessionKey, clientTools, model } = turn;
  const ownerId = caller.ownerId;
  if (sessionKey === undefined) {
    if (input.approvals.length)
      throw new HttpError('invalid_request', 'An mcp_approval_response answers a stored response: send previous_response_id.', { param: 'input' });
    const durableHint = `Send previous_response_id (or the header ${SESSION_HEADER}) with store left on, to keep the conversation on the server, where a person can approve it.`;
    return startStatelessRun({
      agent,
      ownerId,
      source: 'openai',
      history: statelessHistory(input.messages),
      clientTools,
      signal: request.signal,
      durableHint,
      model,
    });
  }
  const store = getStore();
  const sessionId = scopedSessionId(ownerId, sessionKey);
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const pending = pendingInterrupts(view);
  const answers = answersOf(input.approvals, input.messages, pending);
  const messages = newInput(answers.messages, view);
  const common = { agent, store, sessionId, ownerId, durable: true, source: 'openai' as const, messages, clientTools, signal: request.signal, model };
  if (answers.decisions.length) return startRun({ ...common, decisions: answers.decisions, decidedBy: requestActor(request, caller, 'responses') });
  if (messages.length === 0 && pending.length === 0 && view.openToolCalls.length === 0) {
    throw new HttpError(
      'no_new_input',
      `input: nothing new for session "${sessionKey}": the server keeps its history, so send a new message (or the function_call_output the response asked for).`,
      { param: 'input' },
    );
  }
  return startRun({ ...common, queue: 'running' });
}

/** The response's own fields; the creation time from the log when the run is in it (a queued one is not yet). */
async function metaFor(run: StartedRun, agent: DeepAgent, input: ResponseInput, sessionKey: string | undefined): Promise<ResponseMeta> {
  const started = sessionKey === undefined ? null : await runSoFar(getStore(), run.sessionId, run.runId, agent.initialState);
  return {
    id: responseId(run.runId, sessionKey),
    model: agent.name,
    createdAt: Math.floor((started ? Date.parse(started.startedAt) : Date.now()) / 1000),
    // The log does not keep it: a stream says false, as a replay of it on another server does.
    background: input.background && !input.stream,
    store: sessionKey !== undefined,
    previousResponseId: started?.previousRunId ? responseId(started.previousRunId, sessionKey) : null,
  };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
