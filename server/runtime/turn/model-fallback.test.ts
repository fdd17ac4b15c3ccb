// Fallback models and the step timeout (docs/models.md, "Fallback models", "Timeouts"): a model
// call that fails in a way a Retry may fix, before anything streamed, goes to the next model; one
// that streamed, or was refused, does not; a call past stepTimeout fails retryable, and a stop is
// still a stop.
import { APICallError, type LanguageModelV4 } from '@ai-sdk/provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent, type DeepAgentConfig } from '../../authoring';
import type { StreamedPart } from '../../store/events';
import { createScriptedModel } from '../../models/scripted';
import { modelFailure, StepTimeoutError } from '../errors';
import { modelCandidates, streamModelStep } from './model-step';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** A provider that answers every call with this HTTP failure. */
function failing(statusCode: number, isRetryable: boolean): LanguageModelV4 & { calls: number } {
  const model = {
    ...createScriptedModel({ modelId: 'primary' }),
    provider: 'flaky',
    calls: 0,
    async doStream(): Promise<never> {
      model.calls++;
      throw new APICallError({ message: 'upstream exploded', url: 'https://flaky.test/v1', requestBodyValues: {}, statusCode, isRetryable });
    },
  };
  return model;
}

/** A provider that takes the request and never says a word, until the call is aborted. */
function stalling(): LanguageModelV4 {
  return {
    ...createScriptedModel({ modelId: 'silent' }),
    provider: 'stalling',
    async doStream({ abortSignal }) {
      const stream = new ReadableStream({
        start(controller) {
          abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
        },
      });
      return { stream };
    },
  };
}

const backup = () => createScriptedModel({ modelId: 'backup' });

async function step(config: Omit<DeepAgentConfig, 'name'>, text = 'reply with 3 tokens', signal = new AbortController().signal) {
  const agent = defineDeepAgent({ name: 'fallbacks', instructions: 'Be brief.', maxRetries: 0, ...config });
  const emitted: StreamedPart[] = [];
  const result = await streamModelStep({
    agent,
    model: agent.model,
    messages: [{ id: 'u1', role: 'user', content: text }],
    clientTools: [],
    signal,
    attempt: 1,
    usedCallIds: new Set(),
    instructionsContext: { state: {}, session: { id: 's1', agent: agent.name, ownerId: 'o1', durable: true } },
    emit: (part) => emitted.push(part),
  });
  return { result, emitted };
}

describe('fallback models', () => {
  it('a 500 before anything streamed goes to the next model, which answers; the step names it', async () => {
    const primary = failing(500, true);
    const { result, emitted } = await step({ model: primary, fallbackModels: [backup()] });
    expect(primary.calls).toBe(1);
    expect(result.failure).toBeUndefined();
    expect(result.text).toBe('token1 token2 token3');
    expect(result.model).toEqual({ provider: 'scripted', id: 'backup' });
    expect(emitted.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(0);
  });

  it('every model failing fails the step with the last one’s failure, named by it', async () => {
    const { result } = await step({ model: failing(503, true), fallbackModels: [failing(529, true)] });
    expect(modelFailure(result.failure)).toEqual({ status: 529, retryable: true });
    expect(result.model).toEqual({ provider: 'flaky', id: 'primary' });
  });

  it('a refused request (401) is not sent to the next model: it would be refused the same way', async () => {
    const next = failing(500, true);
    const { result } = await step({ model: failing(401, false), fallbackModels: [next] });
    expect(next.calls).toBe(0);
    expect(modelFailure(result.failure)).toEqual({ status: 401, retryable: false });
  });

  it('a call that failed after words streamed is not taken over: what streamed is never said twice', async () => {
    const next = failing(500, true);
    const { result, emitted } = await step({ model: createScriptedModel(), fallbackModels: [next] }, 'fail after 3 tokens');
    expect(next.calls).toBe(0);
    expect(result.failure).toBeDefined();
    expect(
      emitted
        .filter((part) => part.type === 'text-delta')
        .map((part) => (part as { delta: string }).delta)
        .join(''),
    ).toMatch(/^token1 token2 token3/);
  });

  it('defineDeepAgent refuses a fallback that is not a provider/model string or a model', () => {
    expect(() => defineDeepAgent({ name: 'x', model: 'openai/gpt-4o', fallbackModels: ['claude'] })).toThrow(/fallbackModels/);
    expect(() => defineDeepAgent({ name: 'x', model: 'openai/gpt-4o', stepTimeout: 'soon' })).toThrow(/stepTimeout/);
  });
});

describe('the step timeout', () => {
  it('a provider that says nothing past stepTimeout fails the step, retryable, naming the timeout', async () => {
    const started = Date.now();
    const { result } = await step({ model: stalling(), stepTimeout: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.failure).toBeInstanceOf(StepTimeoutError);
    expect(modelFailure(result.failure)).toEqual({ retryable: true, timedOutAfterMs: 200 });
  });

  it('a timed-out model with nothing streamed goes to the fallback, which gets its own budget', async () => {
    const { result } = await step({ model: stalling(), stepTimeout: '200ms', fallbackModels: [backup()] });
    expect(result.failure).toBeUndefined();
    expect(result.text).toBe('token1 token2 token3');
    expect(result.model.id).toBe('backup');
  });

  it('a stop during the wait is not a timeout: no fallback is tried and the failure is not the timeout’s', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const next = failing(500, true);
    const { result } = await step({ model: stalling(), stepTimeout: '5s', fallbackModels: [next] }, 'hello', stop.signal);
    expect(next.calls).toBe(0);
    expect(result.failure).not.toBeInstanceOf(StepTimeoutError);
  });
});

describe('fallbacks on the AI Gateway', () => {
  it('the fallbacks the gateway serves go in its own list (providerOptions.gateway.models), not in the loop', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { STACKBONE_MODEL: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AI_GATEWAY_API_KEY: 'gw-test-not-real' });
      const local = backup();
      const agent = defineDeepAgent({ name: 'gw', model: 'openai/gpt-4o', fallbackModels: ['anthropic/claude-sonnet-4-6', 'google/gemini-2.5-pro', local] });
      const candidates = modelCandidates(agent);
      expect(candidates.map(({ label, gatewayModels }) => ({ label, gatewayModels }))).toEqual([
        { label: { provider: 'gateway', id: 'openai/gpt-4o' }, gatewayModels: ['anthropic/claude-sonnet-4-6', 'google/gemini-2.5-pro'] },
        { label: { provider: 'scripted', id: 'backup' }, gatewayModels: undefined },
      ]);
    } finally {
      process.env = saved;
    }
  });
});
