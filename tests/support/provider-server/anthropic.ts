// Anthropic Messages streaming (POST /v1/messages with stream: true), as "Streaming Messages"
// documents it (https://docs.anthropic.com/en/api/messages-streaming; the extended thinking guide
// for thinking blocks) and as @ai-sdk/anthropic's anthropicChunkSchema and @anthropic-ai/sdk's
// MessageStream read it: named events, each `data` carrying its `type`. message_start (a Message
// with empty content and the input usage), a ping, then each content block at its index:
// content_block_start, content_block_delta (`thinking_delta` then one `signature_delta` for
// thinking; `text_delta` for text; `input_json_delta` pieces of a tool_use's input, which starts
// as {}), content_block_stop; message_delta with the stop_reason and the output usage;
// message_stop. Errors are {type: "error", error: {type, message}} (429 rate_limit_error,
// 500 api_error, 529 overloaded_error: "Errors").
import { randomUUID } from 'node:crypto';
import { jsonPieces, textPieces, type ProviderFormat, type ScriptedReply, type SseFrame } from './script';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const anthropic: ProviderFormat = {
  name: 'anthropic',
  path: '/v1/messages',
  frames(reply: ScriptedReply, request: Record<string, unknown>): SseFrame[] {
    const frames: SseFrame[] = [];
    const emit = (type: string, fields: Record<string, unknown> = {}) => frames.push({ event: type, data: JSON.stringify({ type, ...fields }) });
    const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
    emit('message_start', {
      message: {
        id: `msg_${randomUUID().replaceAll('-', '')}`,
        type: 'message',
        role: 'assistant',
        content: [],
        model: String(request.model),
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    });
    emit('ping');
    let index = 0;
    if (reply.reasoning) {
      emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of textPieces(reply.reasoning.text)) emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
      if (reply.reasoning.signature) emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: reply.reasoning.signature } });
      emit('content_block_stop', { index });
      index++;
    }
    if (reply.text) {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of textPieces(reply.text)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
      emit('content_block_stop', { index });
      index++;
    }
    for (const call of reply.toolCalls ?? []) {
      emit('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
      for (const partial_json of jsonPieces(JSON.stringify(call.input)))
        emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      emit('content_block_stop', { index });
      index++;
    }
    emit('message_delta', {
      delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    });
    emit('message_stop');
    return frames;
  },
  errorBody(status: number, message: string) {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } };
  },
};
