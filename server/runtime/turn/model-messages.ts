// The log's chat messages → AI SDK model messages for one model step.
import type { ModelMessage } from 'ai';
import type { ChatMessage } from '../../events';

/**
 * Model APIs want each tool result right after the call that asked for it. The log keeps
 * arrival order (a user may write while a decision is pending), so results are moved up
 * to their calls here.
 */
function resultsAfterCalls(messages: ChatMessage[]): ChatMessage[] {
  const results = new Map<string, ChatMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  const ordered: ChatMessage[] = [];
  const placed = new Set<ChatMessage>();
  for (const message of messages) {
    if (message.role === 'tool') {
      if (!placed.has(message)) ordered.push(message);
      continue;
    }
    ordered.push(message);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        const result = results.get(call.id);
        if (result && !placed.has(result)) {
          ordered.push(result);
          placed.add(result);
        }
      }
    }
  }
  return ordered;
}

export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of resultsAfterCalls(messages)) {
    switch (message.role) {
      case 'user':
        result.push({ role: 'user', content: message.content });
        break;
      case 'system':
      case 'developer':
        result.push({ role: 'system', content: message.content });
        break;
      case 'assistant': {
        const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
        if (message.content) content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
        }
        if (content.length > 0) result.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError ? { type: 'error-text' as const, value: message.content } : { type: 'text' as const, value: message.content },
        };
        // Consecutive results of one step travel in one tool message.
        const last = result.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else result.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return result;
}
