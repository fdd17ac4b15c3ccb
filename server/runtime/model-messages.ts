// The log's chat messages → AI SDK model messages for one model step.
import type { ModelMessage } from 'ai';
import type { ChatMessage } from './events';

export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of messages) {
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
          output: message.isError
            ? { type: 'error-text' as const, value: message.content }
            : { type: 'text' as const, value: message.content },
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
