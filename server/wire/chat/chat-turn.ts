// A chat-wire turn's input: which of a request's messages are new input, the client tools it
// declares, and a stateless turn's history (the request's history is the whole log). Every rule
// about sessions and approvals stays in the runtime: this only decides what to hand it, and
// routes/v1/chat-turn.ts hands it (docs/internals/wires.md).
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../authoring';
import type { ChatMessage, ToolCall } from '../../store/messages';
import { HttpError } from '../../http/errors';
import { checkClientTools, type ClientTool, type SessionView } from '../../runtime';
import { SESSION_HEADER } from './session-key';

/** A request message in runtime shape (fresh id), with where it was in the request, for errors. */
export interface WireMessage {
  message: ChatMessage;
  /** e.g. "messages[3]" */
  param: string;
}

/** Tools of the request are client tools, under names the runtime accepts (runtime/tools/tool-set.ts), checked before any work. */
export function checkRequestTools(agent: DeepAgent, tools: { tool: ClientTool; param: string }[]): ClientTool[] {
  const clientTools = tools.map(({ tool }) => tool);
  checkClientTools(agent, clientTools, { where: (index) => tools[index]!.param, exclusive: true });
  return clientTools;
}

export function newId(): string {
  return randomUUID();
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
        throw new HttpError(
          'invalid_request',
          `${param}: a tool result for "${message.toolCallId}", which no earlier assistant tool call without a result has.`,
          { param },
        );
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
    throw new HttpError(
      'invalid_request',
      `${param}: the tool call "${id}" has no result; send one for every tool call (or send ${SESSION_HEADER} to keep the conversation on the server).`,
      { param },
    );
  }
  return messages;
}
