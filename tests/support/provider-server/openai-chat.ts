// OpenAI Chat Completions streaming (POST /v1/chat/completions with stream: true), as the API
// reference documents it ("The chat completion chunk object", https://platform.openai.com/docs/api-reference/chat-streaming)
// and as @ai-sdk/openai's openaiChatChunkSchema and the `openai` SDK's ChatCompletionStream read it:
// unnamed `data: {chunk}` events, every chunk a `chat.completion.chunk` with one id and created;
// the first delta carries the role; a tool call's first delta carries its index, id, type and
// function name, its arguments then stream as string pieces under the same index (parallel calls
// one after another, each at its own index); the last choice chunk has the finish_reason and an
// empty delta; with `stream_options.include_usage` one more chunk with empty `choices` carries
// the usage; then `data: [DONE]`. Chat Completions streams no reasoning.
import { randomUUID } from 'node:crypto';
import { openAiErrorBody } from './openai-errors';
import { jsonPieces, textPieces, type ProviderFormat, type ScriptedReply, type SseFrame } from './script';

export const openAiChat: ProviderFormat = {
  name: 'openai-chat',
  path: '/v1/chat/completions',
  frames(reply: ScriptedReply, request: Record<string, unknown>): SseFrame[] {
    if (reply.reasoning) throw new Error('Chat Completions streams no reasoning: script it for Responses or Anthropic.');
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(request.model);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseFrame => ({
      data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_test', choices, ...extra }),
    });
    const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finishReason });
    const frames: SseFrame[] = [chunk([choice({ role: 'assistant', content: '', refusal: null })])];
    for (const piece of textPieces(reply.text ?? '')) frames.push(chunk([choice({ content: piece })]));
    (reply.toolCalls ?? []).forEach((call, index) => {
      frames.push(chunk([choice({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })]));
      for (const piece of jsonPieces(JSON.stringify(call.input))) frames.push(chunk([choice({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    });
    frames.push(chunk([choice({}, reply.toolCalls?.length ? 'tool_calls' : 'stop')]));
    const includeUsage = (request.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    if (includeUsage) {
      const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
      frames.push(
        chunk([], {
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
            prompt_tokens_details: { cached_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
          },
        }),
      );
    }
    frames.push({ data: '[DONE]' });
    return frames;
  },
  errorBody: openAiErrorBody,
};
