// Language models that misbehave the way real providers do, built on the scripted one.
import { APICallError, type LanguageModelV4, type LanguageModelV4Prompt, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModelOptions } from '../../server/models/scripted';
import { SUMMARY_REQUEST } from '../../server/models/summary-request';

/** A provider that numbers its calls per response, as some do: every call is `call_0`. */
export function reusingCallIds(): LanguageModelV4 {
  const base = createScriptedModel();
  const renamed = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
    part.type === 'tool-input-start' || part.type === 'tool-input-delta' || part.type === 'tool-input-end'
      ? { ...part, id: 'call_0' }
      : part.type === 'tool-call'
        ? { ...part, toolCallId: 'call_0' }
        : part;
  return {
    ...base,
    async doStream(call) {
      const result = await base.doStream(call);
      return { ...result, stream: result.stream.pipeThrough(new TransformStream({ transform: (part, controller) => controller.enqueue(renamed(part)) })) };
    },
  };
}

/** The scripted model, keeping the system prompt of every call it answers: what an agent's instructions came to. */
export function recordingSystemPrompts(): { model: LanguageModelV4; systemPrompts: string[] } {
  const base = createScriptedModel();
  const systemPrompts: string[] = [];
  const model: LanguageModelV4 = {
    ...base,
    async doStream(call) {
      systemPrompts.push(
        call.prompt
          .filter((message) => message.role === 'system')
          .map((message) => message.content)
          .join('\n'),
      );
      return base.doStream(call);
    },
  };
  return { model, systemPrompts };
}

/** A provider that answers its first `times` calls with 429 Too Many Requests (retry-after: 0), then answers as the scripted model. */
export function rateLimitedFirst(times: number): { model: LanguageModelV4; calls: () => number } {
  const base = createScriptedModel();
  let calls = 0;
  const model: LanguageModelV4 = {
    ...base,
    async doStream(call) {
      if (++calls <= times) {
        throw new APICallError({
          message: 'Rate limit reached for requests',
          url: 'https://provider.test/v1/chat/completions',
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { 'retry-after': '0' },
        });
      }
      return base.doStream(call);
    },
  };
  return { model, calls: () => calls };
}

/** The scripted model, keeping the whole prompt of every call it answers: what the runtime sent back of earlier steps. */
export function recordingPrompts(options: ScriptedModelOptions = {}): { model: LanguageModelV4; prompts: LanguageModelV4Prompt[] } {
  const base = createScriptedModel(options);
  const prompts: LanguageModelV4Prompt[] = [];
  const model: LanguageModelV4 = {
    ...base,
    async doStream(call) {
      prompts.push(structuredClone(call.prompt));
      return base.doStream(call);
    },
  };
  return { model, prompts };
}

/**
 * The scripted model as a provider with web search answers: each reply cites a source first, and
 * its text carries the provider's own item id (as OpenAI's Responses API gives a message item's).
 */
export function citingSources(): { model: LanguageModelV4; prompts: LanguageModelV4Prompt[] } {
  const { model: base, prompts } = recordingPrompts();
  const withMetadata = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
    part.type === 'text-start' || part.type === 'text-end' ? { ...part, providerMetadata: { search: { itemId: 'msg_1' } } } : part;
  const model: LanguageModelV4 = {
    ...base,
    async doStream(call) {
      const result = await base.doStream(call);
      let cited = false;
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (!cited && part.type === 'text-start') {
              cited = true;
              controller.enqueue({ type: 'source', sourceType: 'url', id: 'src_1', url: 'https://example.com/launch', title: 'Launch notes' });
            }
            controller.enqueue(withMetadata(part));
          },
        }),
      );
      return { ...result, stream };
    },
  };
  return { model, prompts };
}

/** The scripted model behind a provider that fails every summary request (HTTP 500), as a provider in trouble would; other calls answer. */
export function failingSummaries(): LanguageModelV4 {
  const base = createScriptedModel();
  const failIfSummary = (prompt: LanguageModelV4Prompt) => {
    const last = prompt.findLast((message) => message.role === 'user');
    const text = last?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    if (text.startsWith(SUMMARY_REQUEST))
      throw new APICallError({ message: 'Internal server error', url: 'scripted://model', requestBodyValues: {}, statusCode: 500, isRetryable: false });
  };
  return {
    ...base,
    async doStream(call) {
      failIfSummary(call.prompt);
      return base.doStream(call);
    },
  };
}
