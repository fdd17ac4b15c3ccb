// The runtime's turn → Anthropic Messages shapes: the stream's events (message_start,
// content_block_start/delta/stop, message_delta, message_stop), one `message` otherwise, and
// the session's log as Anthropic messages for GET /api/v1/sessions/{key}.
import type { ChatMessage, InterruptRecord } from '../../events';
import type { StartedRun } from '../../runtime';
import { pendingDecisionFields, type SessionSnapshot } from '../chat/session-snapshot';
import { errorStatus } from '../../error-codes';
import { chatTurn, type CollectedTurn } from '../chat/turn-events';
import { anthropicErrorBody } from './errors';

export interface MessageMeta {
  id: string;
  model: string;
}

export function messageMeta(run: StartedRun, model: string): MessageMeta {
  return { id: `msg_${run.runId.replace(/-/g, '')}`, model };
}

export interface StreamEvent {
  event: string;
  data: object;
}

function usageOf(usage: { inputTokens: number; outputTokens: number }) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    server_tool_use: null,
    service_tier: null,
  };
}

type StopReason = 'end_turn' | 'tool_use';

function stopReason(reason: CollectedTurn['reason']): StopReason {
  return reason === 'tool_calls' ? 'tool_use' : 'end_turn';
}

/** The stream: one text block per model step that wrote text, then the tool_use blocks the client must see. */
export async function* messageEvents(run: StartedRun, meta: MessageMeta): AsyncGenerator<StreamEvent> {
  yield {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: meta.id,
        type: 'message',
        role: 'assistant',
        model: meta.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageOf({ inputTokens: 0, outputTokens: 0 }),
      },
    },
  };
  let index = -1;
  let open = false;
  const start = (block: object): StreamEvent => {
    index++;
    open = true;
    return { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } };
  };
  const stop = (): StreamEvent => {
    open = false;
    return { event: 'content_block_stop', data: { type: 'content_block_stop', index } };
  };
  for await (const event of chatTurn(run)) {
    switch (event.type) {
      case 'text-start':
        if (open) yield stop();
        yield start({ type: 'text', text: '' });
        break;
      case 'text-delta':
        if (!open) yield start({ type: 'text', text: '' });
        yield { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: event.text } } };
        break;
      case 'text-end':
        if (open) yield stop();
        break;
      case 'tool-calls':
        if (open) yield stop();
        for (const call of event.calls) {
          yield start({ type: 'tool_use', id: call.id, name: call.name, input: {} });
          yield {
            event: 'content_block_delta',
            data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: call.arguments } },
          };
          yield stop();
        }
        break;
      case 'finish':
        if (open) yield stop();
        yield {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: stopReason(event.reason), stop_sequence: null },
            usage: { input_tokens: event.usage.inputTokens, output_tokens: event.usage.outputTokens },
          },
        };
        yield { event: 'message_stop', data: { type: 'message_stop' } };
        return;
      case 'error':
        // The Messages API's mid-stream error event: the SDK raises it as an APIError.
        yield {
          event: 'error',
          data: anthropicErrorBody({ status: errorStatus(event.code), code: event.code, message: event.message, param: null, retryable: false }),
        };
        return;
    }
  }
}

export function encodeEvent({ event, data }: StreamEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function message(turn: CollectedTurn, meta: MessageMeta) {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: [
      ...turn.texts.map((text) => ({ type: 'text' as const, text })),
      ...turn.toolCalls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input })),
    ],
    stop_reason: stopReason(turn.reason),
    stop_sequence: null,
    usage: usageOf(turn.usage),
  };
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

/**
 * The log's messages as Anthropic messages: tool results are user turns, consecutive turns of
 * one role merge (the API alternates roles), and system messages become `system`.
 */
function toAnthropicMessages(messages: ChatMessage[]): { system?: string; messages: { role: 'user' | 'assistant'; content: Block[] }[] } {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const entry of messages) {
    switch (entry.role) {
      case 'system':
      case 'developer':
        system.push(entry.content);
        break;
      case 'user':
        push('user', [{ type: 'text', text: entry.content }]);
        break;
      case 'assistant':
        push('assistant', [
          ...(entry.content ? [{ type: 'text' as const, text: entry.content }] : []),
          ...(entry.toolCalls ?? []).map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input ?? {} })),
        ]);
        break;
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: entry.toolCallId, content: entry.content, ...(entry.isError ? { is_error: true } : {}) }]);
        break;
    }
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: turns };
}

function toAnthropicInterrupt(record: InterruptRecord) {
  return {
    id: record.id,
    tool_use_id: record.toolCallId,
    name: record.toolName,
    input: record.input ?? {},
    ...pendingDecisionFields(record),
  };
}

export function toAnthropicSession({ key, record, view, pending, queue }: SessionSnapshot) {
  return {
    id: key,
    type: 'session',
    model: record.agent,
    status: view.status,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
    ...toAnthropicMessages(view.messages),
    pendingInterrupts: pending.map(toAnthropicInterrupt),
    state: view.state,
    queue,
  };
}
