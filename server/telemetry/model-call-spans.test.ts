// A model call as the AI SDK's telemetry tells it, made a `chat` span (docs/observability.md, "The
// model span"): its GenAI attributes and usage when it answers, an error status when the provider
// fails, and no callbacks at all with telemetry off. Registers a tracer provider for the whole
// process and sets the endpoint (vitest.config.ts, OWN_PROCESS).
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { modelCallTelemetry } from './model-call-spans';

const spans = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
});
afterEach(() => {
  spans.reset();
  vi.unstubAllEnvs();
});

const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: 4, cacheWrite: undefined }, outputTokens: { total: 3, text: 3, reasoning: undefined } };

const answering = () =>
  new MockLanguageModelV4({
    provider: 'openai.responses',
    modelId: 'gpt-test',
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'response-metadata', id: 'resp-1', modelId: 'gpt-test-2025' },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Hello.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ],
      }),
    }),
  });

/** One model step as model-step.ts makes it: the stream read to its end, the telemetry told when it is done. */
async function step(model: MockLanguageModelV4) {
  const telemetry = modelCallTelemetry('helpdesk');
  let failure: unknown;
  try {
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => undefined, ...(telemetry ? { telemetry: telemetry.options } : {}) });
    for await (const part of result.stream) if (part.type === 'error') throw part.error;
  } catch (error) {
    failure = error;
  } finally {
    telemetry?.done(failure);
  }
  return failure;
}

describe('the model span (docs/observability.md, "The model span")', () => {
  it('is one chat span per provider call, with the GenAI attributes and the usage the provider reported', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:4318');
    expect(await step(answering())).toBeUndefined();
    const [chat, ...others] = spans.getFinishedSpans();
    expect(others).toEqual([]);
    expect(chat!.name).toBe('chat gpt-test');
    expect(chat!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.agent.name': 'helpdesk',
      'gen_ai.response.model': 'gpt-test-2025',
      'gen_ai.response.id': 'resp-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.usage.cache_read.input_tokens': 4,
    });
    expect(chat!.status.code).not.toBe(2);
  });

  it('has error status when the provider fails', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:4318');
    const failing = new MockLanguageModelV4({
      provider: 'anthropic.messages',
      modelId: 'claude-test',
      doStream: async () => {
        throw new Error('the provider is down');
      },
    });
    expect(await step(failing)).toBeDefined();
    const [chat] = spans.getFinishedSpans();
    expect(chat!.name).toBe('chat claude-test');
    expect(chat!.status).toMatchObject({ code: 2, message: expect.stringContaining('the provider is down') });
  });

  it('is not made with telemetry off: the SDK gets no telemetry option', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    expect(modelCallTelemetry('helpdesk')).toBeUndefined();
    await step(answering());
    expect(spans.getFinishedSpans()).toEqual([]);
  });
});
