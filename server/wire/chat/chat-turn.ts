// Starting a chat-wire turn: which of a request's messages are new input, the client tools it
// declares, and a durable turn (on a session) or a stateless one (the request's history is
// the whole log). Every rule about sessions and approvals stays in the runtime: this only
// decides what to hand it (docs/wires.md).
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../define';
import type { ChatMessage, ToolCall } from '../../events';
import { HttpError } from '../../http/errors';
import { pendingInterrupts, type SessionView , checkClientTools, type ClientTool , StartedRun } from '../../runtime';
import { startStatelessRun , startRun , openSession , scopedSessionId } from '../../runtime';
import { getStore } from '../../store';
import { SESSION_HEADER } from './session-key';

/** A request message in runtime shape (fresh id), with where it was in the request, for errors. */
export interface WireMessage {
  message: ChatMessage;
  /** e.g. "messages[3]" */
  param: string;
}

/** Tools of the request are client tools, under names the runtime accepts (runtime/tools.ts), checked before any work. */
export function checkRequestTools(agent: DeepAgent, tools: { tool: ClientTool; param: string }[]): ClientTool[] {
  const clientTools = tools.map(({ tool }) => tool);
  checkClientTools(agent, clientTools, { where: (index) => tools[index]!.param, exclusive: true });
  return clientTools;
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
 * refuses (Refusal, nothing written) when the session may not take it — e.g. 409
 * `interrupts_pending` while a decision is open. Stateless: the whole history is the log.
 */
export async function startChatTurn(request: ChatTurnRequest): Promise<StartedRun> {
  const { agent, ownerId, source, sessionKey, clientTools, signal } = request;
  if (!sessionKey) {
    const durableHint = `Send the header ${SESSION_HEADER}: <a conversation id> to keep the conversation on the server, where a person can approve it.`;
    return startStatelessRun({ agent, ownerId, source, history: statelessHistory(request.history), clientTools, signal, durableHint });
  }
  const store = getStore();
  const sessionId = scopedSessionId(ownerId, sessionKey);
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const messages = newInput(request.history, view);
  // With nothing new and nothing the session waits for, there is no turn to run. (When it
  // waits on a decision or a client tool result, the runtime answers with its own 409.)
  if (messages.length === 0 && pendingInterrupts(view).length === 0 && view.openToolCalls.length === 0) {
    throw new HttpError('no_new_input', `messages: nothing new for session "${sessionKey}": the server keeps its history, so end the request with a new user message (or the results of the client tool calls it asked for).`, { param: 'messages' });
  }
  // A message sent while a turn runs waits for it and is answered in its turn; one sent while a
  // decision is pending is refused (approval_pending), as these wires always have.
  return startRun({ agent, store, sessionId, ownerId, durable: true, source, messages, clientTools, signal, queue: 'running' });
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
        if (calls.has(call.id)) throw new HttpError('invalid_request', `${param}: the tool call id "${call.id}" is used twice.`, { param });
        calls.set(call.id, call);
        open.set(call.id, param);
      }
      messages.push(message);
    } else if (message.role === 'tool') {
      const call = calls.get(message.toolCallId);
      if (!call || !open.has(call.id)) {
        throw new HttpError('invalid_request', `${param}: a tool result for "${message.toolCallId}", which no earlier assistant tool call without a result has.`, { param });
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
    throw new HttpError('invalid_request', `${param}: the tool call "${id}" has no result; send one for every tool call (or send ${SESSION_HEADER} to keep the conversation on the server).`, { param });
  }
  return messages;
}
