// What the two chat wires (OpenAI- and Anthropic-compatible, docs/wires.md) share: the session
// header, which of a request's messages are new input, starting a durable or a stateless
// turn, the turn as a chat completion sees it, and the session read behind
// GET /api/v1/sessions/{key}. Every rule about sessions and approvals stays in the runtime:
// this file only decides what to hand it and what of its output a chat client is shown.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../define';
import { findAgent } from '../agents';
import { HttpError } from '../http/errors';
import { isExpired } from '../runtime/interrupts';
import type { ChatMessage, InterruptRecord, ToolCall } from '../events';
import { RunRejectedError } from '../runtime/errors';
import { emptyView, pendingInterrupts, type SessionView } from '../runtime/reduce';
import { loadView } from '../runtime/views';
import { startStatelessRun } from '../runtime/stateless';
import { toolKind, type ClientTool } from '../runtime/tools';
import { startRun, type RunUsage, type StartedRun } from '../runtime/turn';
import { getStore } from '../store';
import type { SessionRecord } from '../store/types';

/** The header that makes a chat turn durable: its value is the session (AG-UI thread) id. */
export const SESSION_HEADER = 'x-stackbone-session';
/** Printable ASCII without spaces, like any id a client would put in a URL. */
const SESSION_KEY = /^[\x21-\x7e]{1,256}$/;

/** The session key of a request, if it sent one. */
export function readSessionKey(request: Request): string | undefined {
  const raw = request.headers.get(SESSION_HEADER);
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!SESSION_KEY.test(key)) {
    throw new HttpError(400, 'invalid_session_key', `The ${SESSION_HEADER} header must be 1 to 256 printable ASCII characters without spaces.`, { param: SESSION_HEADER });
  }
  return key;
}

/** Answers in the Anthropic shape when asked to (?format=anthropic) or when the client speaks it (anthropic-version). */
export function wantsAnthropicShape(request: Request): boolean {
  const format = new URL(request.url).searchParams.get('format');
  if (format === 'anthropic') return true;
  if (format === 'openai') return false;
  return request.headers.has('anthropic-version');
}

/** A request message in runtime shape (fresh id), with where it was in the request, for errors. */
export interface WireMessage {
  message: ChatMessage;
  /** e.g. "messages[3]" */
  param: string;
}

/** Tools of the request are client tools; they may not shadow the agent's own tools. */
export function checkClientTools(agent: DeepAgent, tools: { tool: ClientTool; param: string }[]): ClientTool[] {
  const seen = new Set<string>();
  for (const { tool, param } of tools) {
    if (toolKind(agent, [], tool.name) !== 'unknown') {
      throw new HttpError(400, 'invalid_tool', `${param}: "${tool.name}" is a tool of agent "${agent.name}" itself; give the client tool another name.`, { param });
    }
    if (seen.has(tool.name)) throw new HttpError(400, 'invalid_tool', `${param}: the tool name "${tool.name}" appears twice.`, { param });
    seen.add(tool.name);
  }
  return tools.map(({ tool }) => tool);
}

export interface ChatTurnRequest {
  agent: DeepAgent;
  ownerId: string;
  source: 'openai' | 'anthropic';
  /** Present: the turn is durable on this session. Absent: stateless. */
  sessionKey?: string;
  /** The request's conversation, in order. */
  history: WireMessage[];
  clientTools: ClientTool[];
  signal?: AbortSignal;
}

export function newId(): string {
  return randomUUID();
}

/**
 * Starts the turn. Durable: only the request's new trailing input goes to the runtime, which
 * refuses (RunRejectedError, nothing written) when the session may not take it — e.g. 409
 * `interrupts_pending` while a decision is open. Stateless: the whole history is the log.
 */
export async function startChatTurn(request: ChatTurnRequest): Promise<StartedRun> {
  const { agent, ownerId, source, sessionKey, clientTools, signal } = request;
  if (!sessionKey) {
    return startStatelessRun({ agent, ownerId, source, history: statelessHistory(request.history), clientTools, signal });
  }
  const store = getStore();
  const session = await store.getSession(sessionKey);
  if (session && session.ownerId !== ownerId) throw new RunRejectedError('not_found', `No session "${sessionKey}".`, 404);
  const view = session ? await loadView(store, sessionKey, agent.initialState) : emptyView(agent.initialState);
  const messages = newInput(request.history, view);
  // With nothing new and nothing the session waits for, there is no turn to run. (When it
  // waits on a decision or a client tool result, the runtime answers with its own 409.)
  if (messages.length === 0 && pendingInterrupts(view).length === 0 && view.openToolCalls.length === 0) {
    throw new HttpError(400, 'no_new_input', `messages: nothing new for session "${sessionKey}": the server keeps its history, so end the request with a new user message (or the results of the client tool calls it asked for).`, { param: 'messages' });
  }
  return startRun({ agent, store, sessionId: sessionKey, ownerId, durable: true, source, messages, clientTools, signal });
}

/**
 * The new input of a durable turn: the messages after the request's last assistant message
 * — user messages and tool results. The server's log is the truth, so earlier messages are
 * context the client already shares with it; system prompts are the agent's instructions.
 * A result for a call the log already answered (the server ran it, e.g. after an approval)
 * is an echo and is dropped; any other result goes to the runtime, which accepts it only
 * for an open client tool call.
 */
export function newInput(history: WireMessage[], view: SessionView): ChatMessage[] {
  const lastAssistant = history.findLastIndex(({ message }) => message.role === 'assistant');
  const answered = new Set(view.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  return history
    .slice(lastAssistant + 1)
    .map(({ message }) => message)
    .filter((message) => message.role === 'user' || (message.role === 'tool' && !answered.has(message.toolCallId)));
}

/**
 * A stateless turn's history, checked the way the model APIs check it: every tool result
 * answers an earlier call of an assistant message, and every such call has its result.
 */
export function statelessHistory(history: WireMessage[]): ChatMessage[] {
  const calls = new Map<string, ToolCall>();
  const open = new Map<string, string>();
  const messages: ChatMessage[] = [];
  for (const { message, param } of history) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (calls.has(call.id)) throw new HttpError(400, 'invalid_request', `${param}: the tool call id "${call.id}" is used twice.`, { param });
        calls.set(call.id, call);
        open.set(call.id, param);
      }
      messages.push(message);
    } else if (message.role === 'tool') {
      const call = calls.get(message.toolCallId);
      if (!call || !open.has(call.id)) {
        throw new HttpError(400, 'invalid_request', `${param}: a tool result for "${message.toolCallId}", which no earlier assistant tool call without a result has.`, { param });
      }
      open.delete(call.id);
      messages.push({ ...message, toolName: call.name });
    } else {
      messages.push(message);
    }
  }
  const [unanswered] = open;
  if (unanswered) {
    const [id, param] = unanswered;
    throw new HttpError(400, 'invalid_request', `${param}: the tool call "${id}" has no result; send one for every tool call (or send ${SESSION_HEADER} to keep the conversation on the server).`, { param });
  }
  return messages;
}

// ─── The turn as a chat client sees it ──────────────────────────────────────────────────

/** A tool call the client is shown: one paused for approval, or one of its own tools. */
export interface VisibleToolCall {
  id: string;
  name: string;
  /** The arguments as a JSON string. */
  arguments: string;
  input: unknown;
}

export type ChatTurnEvent =
  /** A model step starts text (one text block / paragraph per step). */
  | { type: 'text-start' }
  | { type: 'text-delta'; text: string }
  | { type: 'text-end' }
  | { type: 'tool-calls'; calls: VisibleToolCall[] }
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'cancelled'; usage: RunUsage }
  | { type: 'error'; code: string; message: string };

/**
 * The run's parts as one assistant turn. Text streams live. Tool calls are held until the
 * run ends, because only then is it known which ones the client must see: calls paused for
 * a human decision and client tool calls. Server tools that ran freely stay internal; their
 * effect is in the text that follows.
 */
export async function* chatTurn(run: StartedRun): AsyncGenerator<ChatTurnEvent> {
  const calls = new Map<string, { name: string; args: string }>();
  const answered = new Set<string>();
  for await (const part of run.parts) {
    switch (part.type) {
      case 'text-start':
        yield { type: 'text-start' };
        break;
      case 'text-delta':
        yield { type: 'text-delta', text: part.delta };
        break;
      case 'text-end':
        yield { type: 'text-end' };
        break;
      case 'tool-call-start':
        calls.set(part.toolCallId, { name: part.toolName, args: '' });
        break;
      case 'tool-call-delta': {
        const call = calls.get(part.toolCallId);
        if (call) call.args += part.delta;
        break;
      }
      case 'tool-result':
        answered.add(part.toolCallId);
        break;
      case 'run-error':
        yield { type: 'error', code: part.code, message: part.message };
        return;
      case 'run-finished': {
        const usage = run.usage?.() ?? { inputTokens: 0, outputTokens: 0 };
        const { outcome } = part;
        if (outcome.type === 'cancelled') {
          yield { type: 'finish', reason: 'cancelled', usage };
          return;
        }
        const visible: VisibleToolCall[] = [];
        const show = (id: string, name: string, args: string | undefined, input: unknown) => {
          if (visible.some((call) => call.id === id)) return;
          const json = args?.trim() ? args : JSON.stringify(input ?? {});
          visible.push({ id, name, arguments: json, input: parseArguments(json, input) });
        };
        if (outcome.type === 'interrupt') {
          // Paused calls, and any client tool call the same step made (it is still open).
          for (const [id, call] of calls) if (!answered.has(id)) show(id, call.name, call.args, undefined);
          for (const record of part.interrupts ?? []) show(record.toolCallId, record.toolName, calls.get(record.toolCallId)?.args, record.input);
        } else {
          for (const id of outcome.pendingToolCallIds ?? []) {
            const call = calls.get(id);
            if (call) show(id, call.name, call.args, undefined);
          }
        }
        if (visible.length) yield { type: 'tool-calls', calls: visible };
        yield { type: 'finish', reason: visible.length ? 'tool_calls' : 'stop', usage };
        return;
      }
      default:
        break;
    }
  }
}

function parseArguments(json: string, fallback: unknown): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return fallback ?? {};
  }
}

/** The whole turn, for a non-streaming response. */
export interface CollectedTurn {
  /** One entry per model step that wrote text. */
  texts: string[];
  toolCalls: VisibleToolCall[];
  reason: 'stop' | 'tool_calls' | 'cancelled';
  usage: RunUsage;
  error?: { code: string; message: string };
}

export async function collectChatTurn(run: StartedRun): Promise<CollectedTurn> {
  const turn: CollectedTurn = { texts: [], toolCalls: [], reason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
  for await (const event of chatTurn(run)) {
    if (event.type === 'text-start') turn.texts.push('');
    else if (event.type === 'text-delta') {
      if (turn.texts.length === 0) turn.texts.push('');
      turn.texts[turn.texts.length - 1] += event.text;
    } else if (event.type === 'tool-calls') turn.toolCalls = event.calls;
    else if (event.type === 'finish') {
      turn.reason = event.reason;
      turn.usage = event.usage;
    } else if (event.type === 'error') turn.error = { code: event.code, message: event.message };
  }
  turn.texts = turn.texts.filter((text) => text.length > 0);
  return turn;
}

/** The HTTP status a run error mid-turn maps to, for a non-streaming response. */
export function runErrorStatus(code: string): number {
  return code === 'session_busy' ? 409 : 500;
}

// ─── Reading a session (GET /api/v1/sessions/{key}) ─────────────────────────────────────

export interface SessionSnapshot {
  record: SessionRecord;
  view: SessionView;
  /** Decisions still awaited (expired ones are taking their default action). */
  pending: InterruptRecord[];
}

/** The session as its owner sees it; null for an unknown or foreign session (both 404). */
export async function readSession(ownerId: string, key: string): Promise<SessionSnapshot | null> {
  const store = getStore();
  const record = await store.getSession(key);
  if (!record || record.ownerId !== ownerId) return null;
  const agent = findAgent(record.agent);
  const view = await loadView(store, key, agent?.initialState ?? {});
  const now = Date.now();
  return { record, view, pending: pendingInterrupts(view).filter((interrupt) => !isExpired(interrupt, now)) };
}

/** Headers every chat-wire response carries: which session and run answered. */
export function turnHeaders(run: Pick<StartedRun, 'runId'>, sessionKey: string | undefined): Record<string, string> {
  return { 'x-stackbone-run': run.runId, ...(sessionKey ? { [SESSION_HEADER]: sessionKey } : {}) };
}

// ─── Errors, before each wire gives them its own shape ──────────────────────────────────

/** The one message both wires answer a call on a session that waits on a decision with (docs/wires.md, "Errors"). */
export const APPROVAL_PENDING_MESSAGE = 'This conversation is waiting on a human decision. Resolve it before sending a new message.';

export interface WireError {
  status: number;
  /** The machine-readable code clients switch on (e.g. approval_pending). */
  code: string;
  message: string;
  /** The request field at fault, if one is. */
  param: string | null;
  /** Whether the client's SDK should retry by itself (only a briefly busy session). */
  retryable: boolean;
  /** Extra detail (e.g. the pending interrupt ids). */
  details?: Record<string, unknown>;
}

const PUBLIC_CODES: Record<string, string> = {
  interrupts_pending: 'approval_pending',
  unauthorized: 'invalid_api_key',
  body_too_large: 'request_too_large',
  not_found: 'session_not_found',
};

/** Any failure of a chat-wire request, wire-neutral. Unknown errors are logged and become a 500. */
export function toWireError(error: unknown): WireError {
  if (error instanceof RunRejectedError || error instanceof HttpError) {
    const code = PUBLIC_CODES[error.code] ?? error.code;
    const param = typeof error.details?.param === 'string' ? error.details.param : null;
    const details = error.details && Object.fromEntries(Object.entries(error.details).filter(([key]) => key !== 'param'));
    return {
      status: error.status,
      code,
      message: code === 'approval_pending' ? APPROVAL_PENDING_MESSAGE : error.message,
      param,
      retryable: code === 'session_busy',
      ...(details && Object.keys(details).length ? { details } : {}),
    };
  }
  console.error('[stackbone] chat wire request failed', error);
  return { status: 500, code: 'internal_error', message: 'The server failed to handle this request.', param: null, retryable: false };
}

/**
 * Headers of an error response. Both official SDKs retry 408/409/429/5xx on their own unless
 * told otherwise; a pending decision or a failed turn will not change by retrying, so they
 * are told not to (a busy session may: it frees up when the running turn ends).
 */
export function errorHeaders(error: WireError): Record<string, string> {
  return error.retryable ? { 'x-should-retry': 'true', 'retry-after-ms': '500' } : { 'x-should-retry': 'false' };
}
