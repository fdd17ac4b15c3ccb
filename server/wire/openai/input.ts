// An OpenAI Chat Completions request → the runtime's input: the agent's name, the
// conversation in runtime shape (each message a fresh id), and the request's tools as
// client tools. Wrong shapes are 400s that name the field, as OpenAI names it.
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import { HttpError } from '../../http/errors';
import type { ChatMessage } from '../../events';
import type { ClientTool } from '../../runtime';
import { newId, type WireMessage } from '../chat/chat-turn';
import { firstIssue } from '../../runtime';
import { FILES_THROUGH_AG_UI } from '../chat/attachment-note';

const contentParts = z.array(z.looseObject({ type: z.string() }));
const content = z.union([z.string(), contentParts], { error: 'expected a string or an array of content parts' });

const toolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const message = z.discriminatedUnion(
  'role',
  [
    z.looseObject({ role: z.literal('system'), content }),
    z.looseObject({ role: z.literal('developer'), content }),
    z.looseObject({ role: z.literal('user'), content }),
    z.looseObject({ role: z.literal('assistant'), content: content.nullish(), tool_calls: z.array(toolCall).nullish() }),
    z.looseObject({ role: z.literal('tool'), tool_call_id: z.string().min(1), content }),
  ],
  { error: "expected a message with role 'system', 'developer', 'user', 'assistant' or 'tool'" },
);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const tool = z.looseObject({
  type: z.literal('function', { error: "only tools of type 'function' are supported" }),
  function: z.looseObject({
    name: z.string().regex(TOOL_NAME, 'must be 1-64 letters, digits, underscores or dashes'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

const chatCompletionRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z.array(tool).nullish(),
  n: z.number().int().min(1).max(1, 'only n = 1 is supported').nullish(),
});

export interface ChatCompletionInput {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  messages: WireMessage[];
  tools: { tool: ClientTool; param: string }[];
}

/** OpenAI's way of naming a field: messages[0].content. */
function paramOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), '');
}

function invalid(param: string, message: string): HttpError {
  return new HttpError('invalid_request', `Invalid '${param}': ${message}`, { param });
}

export function parseChatCompletionRequest(body: unknown): ChatCompletionInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError('invalid_request', 'The request body must be a JSON object.');
  }
  const parsed = chatCompletionRequest.safeParse(body);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const param = paramOf(issue.path);
    throw param ? invalid(param, issue.message) : new HttpError('invalid_request', issue.message);
  }
  const request = parsed.data;
  return {
    model: request.model,
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true,
    messages: request.messages.map((entry, index) => ({ message: toChatMessage(entry, `messages[${index}]`), param: `messages[${index}]` })),
    tools: (request.tools ?? []).map((entry, index) => ({
      param: `tools[${index}].function.name`,
      tool: {
        name: entry.function.name,
        description: entry.function.description,
        parameters: (entry.function.parameters ?? { type: 'object', properties: {} }) as JSONSchema7,
      },
    })),
  };
}

function textOf(value: z.infer<typeof content> | null | undefined, param: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return value
    .map((part, index) => {
      if (part.type === 'image_url' || part.type === 'file' || part.type === 'input_audio') throw invalid(`${param}[${index}]`, FILES_THROUGH_AG_UI);
      if (part.type !== 'text' || typeof part.text !== 'string') {
        throw invalid(`${param}[${index}]`, `only text content parts are supported (got type '${part.type}').`);
      }
      return part.text;
    })
    .join('');
}

function toChatMessage(entry: z.infer<typeof message>, param: string): ChatMessage {
  const id = newId();
  switch (entry.role) {
    case 'system':
    case 'developer':
      return { id, role: entry.role, content: textOf(entry.content, `${param}.content`) };
    case 'user':
      return { id, role: 'user', content: textOf(entry.content, `${param}.content`) };
    case 'assistant': {
      const toolCalls = (entry.tool_calls ?? []).map((call, index) => ({
        id: call.id,
        name: call.function.name,
        input: parseArguments(call.function.arguments, `${param}.tool_calls[${index}].function.arguments`),
      }));
      return { id, role: 'assistant', content: textOf(entry.content, `${param}.content`), ...(toolCalls.length ? { toolCalls } : {}) };
    }
    case 'tool':
      return { id, role: 'tool', toolCallId: entry.tool_call_id, toolName: '', content: textOf(entry.content, `${param}.content`) };
  }
}

function parseArguments(text: string, param: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(param, 'not valid JSON.');
  }
}
