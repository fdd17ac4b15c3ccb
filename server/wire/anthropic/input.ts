// An Anthropic Messages request → the runtime's input: the agent's name, the conversation in
// runtime shape (each message a fresh id; tool_result blocks become tool messages), the
// system prompt, and the request's tools as client tools. Wrong shapes are 400s naming the
// field the way the Messages API does (messages.0.content.1.type).
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import { HttpError } from '../../http/errors';
import type { ChatMessage, ToolCall } from '../../store/messages';
import type { ClientTool } from '../../runtime';
import { newId, type WireMessage } from '../chat/chat-turn';
import { firstIssue } from '../../runtime';
import { FILES_THROUGH_AG_UI } from '../chat/attachment-note';

const block = z.looseObject({ type: z.string() });
const content = z.union([z.string(), z.array(block)], { error: 'expected a string or an array of content blocks' });
const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

const messagesRequest = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive().optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content })).min(1),
  system: z.union([z.string(), z.array(textBlock)], { error: 'expected a string or an array of text blocks' }).optional(),
  tools: z
    .array(
      z.looseObject({
        type: z.literal('custom', { error: "only client tools (type 'custom' or no type) are supported" }).optional(),
        name: z.string().regex(TOOL_NAME, 'must be 1-128 letters, digits, underscores or dashes'),
        description: z.string().optional(),
        input_schema: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
  stream: z.boolean().optional(),
});

export interface MessagesInput {
  model: string;
  stream: boolean;
  messages: WireMessage[];
  tools: { tool: ClientTool; param: string }[];
}

function invalid(param: string, message: string): HttpError {
  return new HttpError('invalid_request', `${param}: ${message}`, { param });
}

export function parseMessagesRequest(body: unknown): MessagesInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError('invalid_request', 'The request body must be a JSON object.');
  }
  const parsed = messagesRequest.safeParse(body);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const param = issue.path.map(String).join('.');
    throw param ? invalid(param, issue.message) : new HttpError('invalid_request', issue.message);
  }
  const request = parsed.data;
  const messages: WireMessage[] = [];
  if (request.system !== undefined) {
    const text = typeof request.system === 'string' ? request.system : request.system.map((part) => part.text).join('\n');
    if (text) messages.push({ message: { id: newId(), role: 'system', content: text }, param: 'system' });
  }
  request.messages.forEach((entry, index) => {
    const param = `messages.${index}`;
    for (const message of entry.role === 'user' ? fromUser(entry.content, param) : [fromAssistant(entry.content, param)]) messages.push({ message, param });
  });
  return {
    model: request.model,
    stream: request.stream === true,
    messages,
    tools: (request.tools ?? []).map((entry, index) => ({
      param: `tools.${index}.name`,
      tool: { name: entry.name, description: entry.description, parameters: entry.input_schema as JSONSchema7 },
    })),
  };
}

type Content = z.infer<typeof content>;

/** A user turn: its tool results (each a tool message), then its text (one user message). */
function fromUser(value: Content, param: string): ChatMessage[] {
  if (typeof value === 'string') return [{ id: newId(), role: 'user', content: value }];
  const results: ChatMessage[] = [];
  const texts: string[] = [];
  value.forEach((part, index) => {
    const at = `${param}.content.${index}`;
    if (part.type === 'text') texts.push(stringField(part, 'text', at));
    else if (part.type === 'tool_result') {
      const toolUseId = stringField(part, 'tool_use_id', at);
      if (part.is_error !== undefined && typeof part.is_error !== 'boolean') throw invalid(`${at}.is_error`, 'expected a boolean');
      results.push({
        id: newId(),
        role: 'tool',
        toolCallId: toolUseId,
        toolName: '',
        content: resultText(part.content, `${at}.content`),
        ...(part.is_error ? { isError: true } : {}),
      });
    } else if (part.type === 'image' || part.type === 'document') throw invalid(`${at}.type`, FILES_THROUGH_AG_UI);
    else throw invalid(`${at}.type`, `'${part.type}' blocks are not supported in user messages here (text and tool_result are).`);
  });
  return [...results, ...(texts.length ? [{ id: newId(), role: 'user' as const, content: texts.join('\n') }] : [])];
}

function fromAssistant(value: Content, param: string): ChatMessage {
  if (typeof value === 'string') return { id: newId(), role: 'assistant', content: value };
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  value.forEach((part, index) => {
    const at = `${param}.content.${index}`;
    if (part.type === 'text') texts.push(stringField(part, 'text', at));
    else if (part.type === 'tool_use') {
      const input = part.input ?? {};
      if (typeof input !== 'object' || Array.isArray(input)) throw invalid(`${at}.input`, 'expected an object');
      toolCalls.push({ id: stringField(part, 'id', at), name: stringField(part, 'name', at), input });
    } else if (part.type !== 'thinking' && part.type !== 'redacted_thinking') {
      throw invalid(`${at}.type`, `'${part.type}' blocks are not supported in assistant messages here (text and tool_use are).`);
    }
  });
  return { id: newId(), role: 'assistant', content: texts.join(''), ...(toolCalls.length ? { toolCalls } : {}) };
}

function stringField(part: Record<string, unknown>, key: string, at: string): string {
  const value = part[key];
  if (typeof value !== 'string') throw invalid(`${at}.${key}`, `expected a string`);
  return value;
}

function resultText(value: unknown, param: string): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid(param, 'expected a string or an array of text blocks');
  return value
    .map((part, index) => {
      if (!part || typeof part !== 'object' || part.type !== 'text' || typeof part.text !== 'string') {
        throw invalid(`${param}.${index}`, 'only text blocks are supported in tool results here');
      }
      return part.text as string;
    })
    .join('\n');
}
