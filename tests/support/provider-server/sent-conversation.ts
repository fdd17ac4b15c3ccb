// The conversation a model call sent the provider, read back from its request body in any of the
// three formats into one neutral list, so that a test states once what every provider was sent:
// the system prompt, user text, assistant text, each tool call and each tool result, in order,
// and any reasoning the client sent back (kept raw: which field carries it is the point).
import type { RecordedRequest } from './script';

export type SentEntry =
  | { system: string }
  | { user: string }
  | { assistant: string }
  | { call: { id: string; name: string; input: unknown } }
  | { result: { id: string; output: string; isError?: true } }
  | { reasoning: Record<string, unknown> }
  /** A Responses `item_reference`: an earlier output item (a message, a reasoning item) named by its id, kept by the provider (`store`). */
  | { reference: string };

type Json = Record<string, unknown>;

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : ((content ?? []) as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');

export function sentConversation(request: RecordedRequest): SentEntry[] {
  switch (request.format) {
    case 'openai-chat':
      return (request.body.messages as Json[]).flatMap((message): SentEntry[] => {
        if (message.role === 'system' || message.role === 'developer') return [{ system: textOf(message.content) }];
        if (message.role === 'user') return [{ user: textOf(message.content) }];
        if (message.role === 'tool') return [{ result: { id: String(message.tool_call_id), output: textOf(message.content) } }];
        const calls = ((message.tool_calls ?? []) as { id: string; function: { name: string; arguments: string } }[]).map((call): SentEntry => ({
          call: { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) },
        }));
        return [...(textOf(message.content) ? [{ assistant: textOf(message.content) }] : []), ...calls];
      });
    case 'openai-responses':
      return (request.body.input as Json[]).map((item): SentEntry => {
        if (item.type === 'function_call') return { call: { id: String(item.call_id), name: String(item.name), input: JSON.parse(String(item.arguments)) } };
        if (item.type === 'function_call_output') return { result: { id: String(item.call_id), output: textOf(item.output) } };
        if (item.type === 'reasoning') return { reasoning: item };
        if (item.type === 'item_reference') return { reference: String(item.id) };
        if (item.role === 'system' || item.role === 'developer') return { system: textOf(item.content) };
        return item.role === 'user' ? { user: textOf(item.content) } : { assistant: textOf(item.content) };
      });
    case 'anthropic': {
      const system = ((request.body.system ?? []) as Json[]).map((block): SentEntry => ({ system: String(block.text) }));
      const messages = (request.body.messages as { role: string; content: Json[] }[]).flatMap((message) =>
        message.content.map((block): SentEntry => {
          if (block.type === 'tool_use') return { call: { id: String(block.id), name: String(block.name), input: block.input } };
          if (block.type === 'tool_result')
            return { result: { id: String(block.tool_use_id), output: textOf(block.content), ...(block.is_error ? { isError: true as const } : {}) } };
          if (block.type === 'thinking' || block.type === 'redacted_thinking') return { reasoning: block };
          return message.role === 'user' ? { user: String(block.text) } : { assistant: String(block.text) };
        }),
      );
      return [...system, ...messages];
    }
    default:
      throw new Error(`Not a model call: ${request.path}`);
  }
}

/** The names of the tools a model call offered. */
export function offeredTools(request: RecordedRequest): string[] {
  return ((request.body.tools ?? []) as Json[]).map((tool) => String((tool.function as Json | undefined)?.name ?? tool.name));
}
