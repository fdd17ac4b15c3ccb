// A Responses request → the runtime's input (docs/internals/wires.md, "The Responses wire"): the agent's
// name, the input items as the conversation in runtime shape (each message a fresh id), the
// answers to approval requests, the request's function tools as client tools, and how the turn
// runs (stream, background, store, previous_response_id). Wrong shapes are 400s that name the
// field, as OpenAI names it.
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import type { ChatMessage, ToolCall } from '../../store/messages';
import type { ClientTool } from '../../runtime';
import { FILES_THROUGH_AG_UI } from '../chat/attachment-note';
import { newId, type WireMessage } from '../chat/chat-turn';
import { invalidParam, parseArguments, readOpenAiBody } from '../openai/request-body';

const TEXT_PARTS = new Set(['input_text', 'output_text', 'text']);
const contentParts = z.array(z.looseObject({ type: z.string(), text: z.string().optional() }));
const content = z.union([z.string(), contentParts], { error: 'expected a string or an array of content parts' });

const messageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content,
});
const functionCallItem = z.looseObject({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string().min(1), arguments: z.string() });
const functionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), contentParts]),
});
const approvalResponseItem = z.looseObject({
  type: z.literal('mcp_approval_response'),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().max(2000).nullish(),
});
/** Items a client echoes from an earlier response: the server has them already. */
const echoedItem = z.looseObject({ type: z.enum(['reasoning', 'item_reference']) });
/** An approval request echoed back: it ended an assistant turn, so what follows it is new. */
const approvalRequestItem = z.looseObject({ type: z.literal('mcp_approval_request') });

const item = z.union([messageItem, functionCallItem, functionCallOutputItem, approvalResponseItem, approvalRequestItem, echoedItem], {
  error: 'expected a message, function_call, function_call_output or mcp_approval_response item',
});

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const functionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string().regex(TOOL_NAME, 'must be 1-64 letters, digits, underscores or dashes'),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
});
/** The agent's own tools, as a client that handles approvals as MCP approvals declares them (OpenAI Agents JS' hostedMcpTool). */
const mcpTool = z.looseObject({ type: z.literal('mcp'), server_label: z.string() });
const tool = z.discriminatedUnion('type', [functionTool, mcpTool], {
  error: "only tools of type 'function' (the client's own) and 'mcp' with the agent's name as server_label (its tools) are supported",
});

const responseRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item)]),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  stream: z.boolean().nullish(),
  background: z.boolean().nullish(),
  store: z.boolean().nullish(),
  tools: z.array(tool).nullish(),
});

/** A person's answer to an approval request (an interrupt), as the client sent it. */
export interface ApprovalAnswer {
  interruptId: string;
  approve: boolean;
  reason?: string;
}

export interface ResponseInput {
  model: string;
  stream: boolean;
  background: boolean;
  /** false: a stateless turn, nothing kept (docs/internals/wires.md, "The Responses wire"). */
  store: boolean;
  previousResponseId?: string;
  /** The input in runtime shape: messages, the calls a client echoes, its function results. */
  messages: WireMessage[];
  approvals: ApprovalAnswer[];
  /** The input carries earlier turns (assistant messages or function calls): a whole conversation. */
  carriesHistory: boolean;
  tools: { tool: ClientTool; param: string }[];
  /** The server_label of each `mcp` tool: it must be the agent's name. */
  mcpLabels: { label: string; param: string }[];
}

export function parseResponseRequest(body: unknown): ResponseInput {
  const request = readOpenAiBody(responseRequest, body);
  // The agent's instructions are its system prompt; a request that brings its own would be
  // silently overridden, so it is refused rather than ignored (docs/internals/wires.md, "The Responses wire").
  if (request.instructions) {
    throw invalidParam('instructions', "the agent's own instructions are its system prompt: send what you would say as an input message instead.");
  }
  const items = typeof request.input === 'string' ? [{ role: 'user' as const, content: request.input }] : request.input;
  const messages: WireMessage[] = [];
  const approvals: ApprovalAnswer[] = [];
  let carriesHistory = false;
  items.forEach((entry, index) => {
    const param = `input[${index}]`;
    if ('role' in entry) {
      const message = entry as z.infer<typeof messageItem>;
      carriesHistory ||= message.role === 'assistant';
      messages.push({ message: toChatMessage(message.role, textOf(message.content, `${param}.content`)), param });
    } else if (entry.type === 'function_call') {
      carriesHistory = true;
      const call: ToolCall = { id: entry.call_id, name: entry.name, input: parseArguments(entry.arguments, `${param}.arguments`) };
      // Consecutive calls are one assistant turn, after the text it wrote, as the model made them.
      const last = messages.at(-1)?.message;
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ message: { id: newId(), role: 'assistant', content: '', toolCalls: [call] }, param });
    } else if (entry.type === 'function_call_output') {
      const output = typeof entry.output === 'string' ? entry.output : textOf(entry.output, `${param}.output`);
      messages.push({ message: { id: newId(), role: 'tool', toolCallId: entry.call_id, toolName: '', content: output }, param });
    } else if (entry.type === 'mcp_approval_request') {
      carriesHistory = true;
      messages.push({ message: { id: newId(), role: 'assistant', content: '' }, param });
    } else if (entry.type === 'mcp_approval_response') {
      approvals.push({ interruptId: entry.approval_request_id, approve: entry.approve, ...(entry.reason ? { reason: entry.reason } : {}) });
    }
  });
  return {
    model: request.model,
    stream: request.stream === true,
    background: request.background === true,
    store: request.store !== false,
    ...(request.previous_response_id ? { previousResponseId: request.previous_response_id } : {}),
    messages,
    approvals,
    carriesHistory,
    tools: (request.tools ?? []).flatMap((entry, index) =>
      entry.type === 'function'
        ? [
            {
              param: `tools[${index}].name`,
              tool: {
                name: entry.name,
                ...(entry.description ? { description: entry.description } : {}),
                parameters: (entry.parameters ?? { type: 'object', properties: {} }) as JSONSchema7,
              },
            },
          ]
        : [],
    ),
    mcpLabels: (request.tools ?? []).flatMap((entry, index) =>
      entry.type === 'mcp' ? [{ label: entry.server_label, param: `tools[${index}].server_label` }] : [],
    ),
  };
}

function toChatMessage(role: 'user' | 'assistant' | 'system' | 'developer', text: string): ChatMessage {
  return role === 'assistant' ? { id: newId(), role, content: text } : { id: newId(), role, content: text };
}

/** Text parts joined; a file or image part is refused (files go through AG-UI). */
function textOf(value: string | { type: string; text?: string }[], param: string): string {
  if (typeof value === 'string') return value;
  return value
    .map((part, index) => {
      if (!TEXT_PARTS.has(part.type) || typeof part.text !== 'string') throw invalidParam(`${param}[${index}]`, FILES_THROUGH_AG_UI);
      return part.text;
    })
    .join('');
}
