// OpenAI Responses streaming (POST /v1/responses with stream: true), as the API reference's
// "Streaming events" page documents it (https://platform.openai.com/docs/api-reference/responses-streaming)
// and as @ai-sdk/openai's openaiResponsesChunkSchema and the `openai` SDK's ResponseStream read
// it: named events, each `data` carrying its `type` and a `sequence_number`. response.created and
// response.in_progress open; every output item is announced (response.output_item.added, at its
// output_index) and finished (response.output_item.done, the whole item). A reasoning item streams
// its summary (reasoning_summary_part.added, reasoning_summary_text.delta/done,
// reasoning_summary_part.done) and carries its `encrypted_content` on the finished item (the
// reference: the one on output_item.added may be incomplete). A message streams its text in one
// output_text content part (content_part.added, output_text.delta/done, content_part.done). A
// function call is announced with empty arguments, which then stream
// (function_call_arguments.delta/done). The pages a text cites arrive as
// response.output_text.annotation.added (url_citation, spanning the text) and on its finished part.
// response.completed closes, with the output and the usage.
import { randomUUID } from 'node:crypto';
import { openAiErrorBody } from './openai-errors';
import { jsonPieces, textPieces, type ProviderFormat, type ScriptedReply, type SseFrame } from './script';

export const openAiResponses: ProviderFormat = {
  name: 'openai-responses',
  path: '/v1/responses',
  frames(reply: ScriptedReply, request: Record<string, unknown>): SseFrame[] {
    const frames: SseFrame[] = [];
    const emit = (type: string, fields: Record<string, unknown>) =>
      frames.push({ event: type, data: JSON.stringify({ type, sequence_number: frames.length, ...fields }) });
    const id = `resp_${randomUUID().replaceAll('-', '')}`;
    const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: String(request.model), error: null, incomplete_details: null };
    emit('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
    emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } });

    const output: Record<string, unknown>[] = [];
    const add = (item: Record<string, unknown>) => {
      emit('response.output_item.added', { output_index: output.length, item });
      return output.length;
    };
    const done = (index: number, item: Record<string, unknown>) => {
      emit('response.output_item.done', { output_index: index, item });
      output.push(item);
    };

    if (reply.reasoning) {
      const { text, itemId = `rs_${randomUUID().replaceAll('-', '')}`, encryptedContent } = reply.reasoning;
      const index = add({ id: itemId, type: 'reasoning', summary: [] });
      const at = { item_id: itemId, output_index: index, summary_index: 0 };
      emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
      for (const delta of textPieces(text)) emit('response.reasoning_summary_text.delta', { ...at, delta });
      emit('response.reasoning_summary_text.done', { ...at, text });
      emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
      done(index, {
        id: itemId,
        type: 'reasoning',
        summary: [{ type: 'summary_text', text }],
        ...(encryptedContent ? { encrypted_content: encryptedContent } : {}),
      });
    }

    if (reply.text) {
      const itemId = `msg_${randomUUID().replaceAll('-', '')}`;
      const index = add({ id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] });
      const at = { item_id: itemId, output_index: index, content_index: 0 };
      emit('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
      for (const delta of textPieces(reply.text)) emit('response.output_text.delta', { ...at, delta, logprobs: [] });
      emit('response.output_text.done', { ...at, text: reply.text, logprobs: [] });
      const annotations = (reply.citations ?? []).map(({ url, title }) => ({
        type: 'url_citation',
        start_index: 0,
        end_index: reply.text!.length,
        url,
        title,
      }));
      annotations.forEach((annotation, annotation_index) => emit('response.output_text.annotation.added', { ...at, annotation_index, annotation }));
      const part = { type: 'output_text', text: reply.text, annotations };
      emit('response.content_part.done', { ...at, part });
      done(index, { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] });
    }

    for (const call of reply.toolCalls ?? []) {
      const itemId = `fc_${randomUUID().replaceAll('-', '')}`;
      const item = { id: itemId, type: 'function_call', status: 'in_progress', call_id: call.id, name: call.name, arguments: '' };
      const index = add(item);
      const args = JSON.stringify(call.input);
      for (const delta of jsonPieces(args)) emit('response.function_call_arguments.delta', { item_id: itemId, output_index: index, delta });
      emit('response.function_call_arguments.done', { item_id: itemId, output_index: index, arguments: args });
      done(index, { ...item, status: 'completed', arguments: args });
    }

    const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
    emit('response.completed', {
      response: {
        ...base,
        status: 'completed',
        output,
        usage: {
          input_tokens: usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
      },
    });
    return frames;
  },
  errorBody: openAiErrorBody,
};
