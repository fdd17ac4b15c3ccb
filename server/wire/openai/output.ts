// The runtime's turn → OpenAI Chat Completions shapes: `chat.completion.chunk` objects for
// a stream (ending with [DONE]), one `chat.completion` otherwise, and the session's log as
// OpenAI messages for GET /api/v1/sessions/{key}. Reasoning is `reasoning_content`, beside
// `content`: the convention of DeepSeek, vLLM and OpenRouter, which OpenAI's API has no field
// for (docs/internals/wires.md, "OpenAI details").
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import type { StartedRun, UsageTotals } from '../../runtime';
import { chatWireParent, pendingDecisionFields, type SessionSnapshot } from '../chat/session-snapshot';
import { errorStatus } from '../../error-codes';
import { chatTurn, textsOf, type CollectedTurn, type VisibleToolCall } from '../chat/turn-events';
import { openAiErrorBody } from './errors';
import { functionCall } from '../function-call';
import { userTextWithAttachments } from '../chat/attachment-note';

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export function completionMeta(run: StartedRun, model: string): CompletionMeta {
  return { id: `chatcmpl-${run.runId}`, created: Math.floor(Date.now() / 1000), model };
}

/** Text of separate model steps, joined into one assistant message. */
const STEP_SEPARATOR = '\n\n';

function toolCallsOf(calls: VisibleToolCall[]) {
  return calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
}

export const DONE = '[DONE]';

/** The stream: a role chunk, reasoning and content deltas, tool calls, the finish chunk, usage if asked, [DONE]. */
export async function* completionChunks(run: StartedRun, meta: CompletionMeta, includeUsage: boolean): AsyncGenerator<object | typeof DONE> {
  const chunk = (delta: object, finishReason: string | null = null) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  yield chunk({ role: 'assistant', content: '' });
  let wroteText = false;
  let separate = false;
  let wroteReasoning = false;
  let separateReasoning = false;
  for await (const event of chatTurn(run)) {
    switch (event.type) {
      case 'reasoning-start':
        separateReasoning = wroteReasoning;
        break;
      case 'reasoning-delta':
        yield chunk({ reasoning_content: separateReasoning ? STEP_SEPARATOR + event.text : event.text });
        separateReasoning = false;
        wroteReasoning = true;
        break;
      case 'text-start':
        separate = wroteText;
        break;
      case 'text-delta':
        yield chunk({ content: separate ? STEP_SEPARATOR + event.text : event.text });
        separate = false;
        wroteText = true;
        break;
      case 'tool-calls':
        for (const [index, call] of toolCallsOf(event.calls).entries()) yield chunk({ tool_calls: [{ index, ...call }] });
        break;
      case 'finish':
        yield chunk({}, event.reason === 'tool_calls' ? 'tool_calls' : 'stop');
        if (includeUsage) {
          yield {
            id: meta.id,
            object: 'chat.completion.chunk',
            created: meta.created,
            model: meta.model,
            system_fingerprint: null,
            choices: [],
            usage: usageOf(event.usage),
          };
        }
        yield DONE;
        return;
      case 'error':
        // OpenAI's mid-stream error: the SDK raises it as an APIError.
        yield openAiErrorBody({ status: errorStatus(event.code), code: event.code, message: event.message, param: null, retryable: false });
        return;
      default:
        break;
    }
  }
}

/** OpenAI's usage: cached tokens are part of the prompt's, reasoning tokens part of the completion's, as in the log. */
function usageOf(usage: UsageTotals) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

export function chatCompletion(turn: CollectedTurn, meta: CompletionMeta) {
  const text = textsOf(turn, 'text').join(STEP_SEPARATOR);
  const reasoning = textsOf(turn, 'reasoning').join(STEP_SEPARATOR);
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (turn.toolCalls.length ? null : ''),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          refusal: null,
          annotations: [],
          ...(turn.toolCalls.length ? { tool_calls: toolCallsOf(turn.toolCalls) } : {}),
        },
        logprobs: null,
        finish_reason: turn.reason === 'tool_calls' ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageOf(turn.usage),
  };
}

/** The log's messages as OpenAI chat messages (every tool call and result, server-side ones too). */
function toOpenAiMessages(messages: ChatMessage[]) {
  return messages.map((message) => {
    switch (message.role) {
      case 'user':
        return { id: message.id, role: message.role, content: userTextWithAttachments(message) };
      case 'system':
      case 'developer':
        return { id: message.id, role: message.role, content: message.content };
      case 'assistant':
        return {
          id: message.id,
          role: 'assistant' as const,
          content: message.content || (message.toolCalls?.length ? null : ''),
          ...(message.reasoning?.some((part) => part.text)
            ? {
                reasoning_content: message.reasoning
                  .map((part) => part.text)
                  .filter(Boolean)
                  .join(STEP_SEPARATOR),
              }
            : {}),
          ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map(functionCall) } : {}),
        };
      case 'tool':
        return {
          id: message.id,
          role: 'tool' as const,
          tool_call_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        };
    }
  });
}

function toOpenAiInterrupt(record: InterruptRecord) {
  return {
    id: record.id,
    tool_call_id: record.toolCallId,
    name: record.toolName,
    arguments: JSON.stringify(record.input ?? {}),
    ...pendingDecisionFields(record),
  };
}

export function toOpenAiSession({ key, record, view, pending, queue }: SessionSnapshot) {
  return {
    id: key,
    object: 'stackbone.session',
    model: record.agent,
    status: view.status,
    created: Math.floor(record.createdAt.getTime() / 1000),
    updated: Math.floor(record.updatedAt.getTime() / 1000),
    messages: toOpenAiMessages(view.messages),
    pendingInterrupts: pending.map(toOpenAiInterrupt),
    state: view.state,
    queue,
    /** The thread this one was forked from (docs/time-travel.md); null for an original. */
    parent: chatWireParent(view),
  };
}
