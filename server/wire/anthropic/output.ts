// The runtime's turn → Anthropic Messages shapes: the stream's events (message_start,
// content_block_start/delta/stop, message_delta, message_stop), one `message` otherwise, and
// the session's log as Anthropic messages for GET /api/v1/sessions/{key}. Reasoning is a
// `thinking` block, its signature what the provider said of it (docs/internals/wires.md, "Anthropic details").
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage, ProviderMetadata } from '../../store/messages';
import type { StartedRun, UsageTotals } from '../../runtime';
import { chatWireParent, pendingDecisionFields, type SessionSnapshot } from '../chat/session-snapshot';
import { errorStatus } from '../../error-codes';
import { chatTurn, type CollectedTurn } from '../chat/turn-events';
import { anthropicErrorBody } from './errors';
import { userTextWithAttachments } from '../chat/attachment-note';

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

/**
 * Anthropic's usage: its `input_tokens` are the input not read from the cache, beside
 * `cache_read_input_tokens` (the log counts cached input as part of the input).
 */
function usageOf(usage: UsageTotals) {
  return {
    input_tokens: usage.inputTokens - usage.cachedInputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: usage.cachedInputTokens,
    server_tool_use: null,
    service_tier: null,
  };
}

/** message_delta's usage: cumulative, as Anthropic's own, so the turn's whole usage. */
function deltaUsage(usage: UsageTotals) {
  const { input_tokens, output_tokens, cache_read_input_tokens } = usageOf(usage);
  return { input_tokens, output_tokens, cache_read_input_tokens };
}

/**
 * A thinking block's signature: Anthropic's own when the model is Anthropic's; otherwise the
 * provider's metadata as JSON, opaque as a signature is (a client sends thinking blocks back, and
 * the server ignores them: it keeps the history itself). Empty when the provider said nothing.
 */
function signatureOf(metadata: ProviderMetadata | undefined): string {
  const signature = metadata?.anthropic?.signature;
  if (typeof signature === 'string') return signature;
  return metadata ? JSON.stringify(metadata) : '';
}

type StopReason = 'end_turn' | 'tool_use';

function stopReason(reason: CollectedTurn['reason']): StopReason {
  return reason === 'tool_calls' ? 'tool_use' : 'end_turn';
}

/** The stream: a thinking block per span of reasoning and a text block per model step that wrote text, as they came, then the tool_use blocks the client must see. */
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
        usage: usageOf({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 }),
      },
    },
  };
  let index = -1;
  /** The type of the block open now, if one is. */
  let open: string | undefined;
  const start = (block: { type: string; [key: string]: unknown }): StreamEvent => {
    index++;
    open = block.type;
    return { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } };
  };
  const stop = (): StreamEvent => {
    open = undefined;
    return { event: 'content_block_stop', data: { type: 'content_block_stop', index } };
  };
  const delta = (body: object): StreamEvent => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: body } });
  /** Opens a block of this type unless one is open already, closing any other first. */
  function* into(type: 'thinking' | 'text'): Generator<StreamEvent> {
    if (open === type) return;
    if (open) yield stop();
    yield start(type === 'thinking' ? { type, thinking: '', signature: '' } : { type, text: '' });
  }
  for await (const event of chatTurn(run)) {
    switch (event.type) {
      case 'reasoning-start':
        if (open) yield stop();
        yield* into('thinking');
        break;
      case 'reasoning-delta':
        yield* into('thinking');
        yield delta({ type: 'thinking_delta', thinking: event.text });
        break;
      case 'reasoning-end': {
        if (open !== 'thinking') break;
        // As Anthropic does: the signature comes last, in a delta of its own.
        const signature = signatureOf(event.providerMetadata);
        if (signature) yield delta({ type: 'signature_delta', signature });
        yield stop();
        break;
      }
      case 'text-start':
        if (open) yield stop();
        yield* into('text');
        break;
      case 'text-delta':
        yield* into('text');
        yield delta({ type: 'text_delta', text: event.text });
        break;
      case 'text-end':
        if (open) yield stop();
        break;
      case 'tool-calls':
        if (open) yield stop();
        for (const call of event.calls) {
          yield start({ type: 'tool_use', id: call.id, name: call.name, input: {} });
          yield delta({ type: 'input_json_delta', partial_json: call.arguments });
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
            usage: deltaUsage(event.usage),
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
      ...turn.content.map((block) =>
        block.type === 'reasoning'
          ? { type: 'thinking' as const, thinking: block.text, signature: signatureOf(block.providerMetadata) }
          : { type: 'text' as const, text: block.text },
      ),
      ...turn.toolCalls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input })),
    ],
    stop_reason: stopReason(turn.reason),
    stop_sequence: null,
    usage: usageOf(turn.usage),
  };
}

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
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
        push('user', [{ type: 'text', text: userTextWithAttachments(entry) }]);
        break;
      case 'assistant':
        push('assistant', [
          ...(entry.reasoning ?? []).map((part) => ({ type: 'thinking' as const, thinking: part.text, signature: signatureOf(part.providerMetadata) })),
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
    /** The thread this one was forked from (docs/time-travel.md); null for an original. */
    parent: chatWireParent(view),
  };
}
