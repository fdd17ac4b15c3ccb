// An OpenAI Chat Completions request → the runtime's input: the agent's name, the
// conversation in runtime shape (each message a fresh id), and the request's tools as
// client tools. Wrong shapes are 400s that name the field, as OpenAI names it.
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import type { ChatMessage } from '../../store/messages';
import type { ClientTool } from '../../runtime';
import { newId, type WireMessage } from '../chat/chat-turn';
import { FILES_THROUGH_AG_UI } from '../chat/attachment-note';
import { invalidParam, parseArguments, readOpenAiBody } from './request-body';

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

export function parseChatCompletionRequest(body: unknown): ChatCompletionInput {
  const request = readOpenAiBody(chatCompletionRequest, body);
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
      if (part.type === 'image_url' || part.type === 'file' || part.type === 'input_audio') throw invalidParam(`${param}[${index}]`, FILES_THROUGH_AG_UI);
      if (part.type !== 'text' || typeof part.text !== 'string') {
        throw invalidParam(`${param}[${index}]`, `only text content parts are supported (got type '${part.type}').`);
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
