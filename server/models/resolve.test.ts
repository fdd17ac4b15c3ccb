// Which backend a model string resolves to, from the environment at call time. No network:
// only the chosen provider and model id are checked, never a call.
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isScriptedMode, modelMode, resolveModel } from './resolve';

const MODEL_ENV = [
  'STACKBONE_MODEL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_API',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'AI_GATEWAY_API_KEY',
  'VERCEL_OIDC_TOKEN',
  'STACKBONE_SCRIPTED_DELAY_MS',
];

beforeEach(() => {
  for (const name of MODEL_ENV) vi.stubEnv(name, ''); // the machine's own keys must not leak in
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('resolveModel', () => {
  it('uses the scripted model when no key is set, keeping the original string as model id', () => {
    const r = resolveModel('openai/gpt-4o-mini');
    expect(r).toMatchObject({ provider: 'scripted', modelId: 'openai/gpt-4o-mini', scripted: true });
    expect(r.model).toMatchObject({ specificationVersion: 'v4', provider: 'scripted', modelId: 'openai/gpt-4o-mini' });
    expect(modelMode()).toBe('scripted');
    expect(isScriptedMode()).toBe(true);
  });

  it('uses the OpenAI provider with OPENAI_API_KEY', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    const r = resolveModel('openai/gpt-4o-mini');
    expect(r).toMatchObject({ provider: 'openai', modelId: 'gpt-4o-mini', scripted: false });
    expect(r.model).toMatchObject({ modelId: 'gpt-4o-mini', provider: expect.stringMatching(/^openai\./) });
    expect(modelMode()).toBe('openai');
    expect(isScriptedMode()).toBe(false);
  });

  it('speaks chat completions to an OPENAI_BASE_URL server', () => {
    vi.stubEnv('OPENAI_API_KEY', 'ollama');
    vi.stubEnv('OPENAI_BASE_URL', 'http://localhost:11434/v1');
    expect(resolveModel('openai/llama3.2').model).toMatchObject({ provider: 'openai.chat', modelId: 'llama3.2' });
  });

  it("speaks the Responses API to OpenAI's own server", () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    expect(resolveModel('openai/gpt-4o-mini').model).toMatchObject({ provider: 'openai.responses' });
  });

  it('OPENAI_API says which API: the Responses API at an OPENAI_BASE_URL, chat completions at OpenAI', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    vi.stubEnv('OPENAI_BASE_URL', 'http://localhost:4000/v1');
    vi.stubEnv('OPENAI_API', 'responses');
    expect(resolveModel('openai/gpt-4o-mini').model).toMatchObject({ provider: 'openai.responses', modelId: 'gpt-4o-mini' });
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('OPENAI_API', 'Chat');
    expect(resolveModel('openai/gpt-4o-mini').model).toMatchObject({ provider: 'openai.chat' });
    vi.stubEnv('OPENAI_API', 'completions');
    expect(() => resolveModel('openai/gpt-4o-mini')).toThrow('OPENAI_API must be "responses" or "chat", got "completions"');
  });

  it('uses the Anthropic provider with ANTHROPIC_API_KEY', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
    expect(resolveModel('anthropic/claude-sonnet-4-5')).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', scripted: false });
  });

  it('falls back to the gateway for a provider without its own key', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    vi.stubEnv('AI_GATEWAY_API_KEY', 'gw-test');
    expect(resolveModel('anthropic/claude-sonnet-4-5')).toMatchObject({ provider: 'gateway', modelId: 'anthropic/claude-sonnet-4-5', scripted: false });
    expect(resolveModel('openai/gpt-4o-mini')).toMatchObject({ provider: 'openai' });
  });

  it('uses the gateway with a Vercel OIDC token', () => {
    vi.stubEnv('VERCEL_OIDC_TOKEN', 'oidc-test');
    expect(resolveModel('openai/gpt-4o-mini')).toMatchObject({ provider: 'gateway', modelId: 'openai/gpt-4o-mini' });
    expect(modelMode('openai/gpt-4o-mini')).toBe('gateway');
  });

  it('uses the scripted model for a provider with no key when other keys are set', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    expect(resolveModel('anthropic/claude-sonnet-4-5')).toMatchObject({ provider: 'scripted', scripted: true });
    expect(isScriptedMode('anthropic/claude-sonnet-4-5')).toBe(true);
    expect(isScriptedMode('openai/gpt-4o-mini')).toBe(false);
  });

  it('STACKBONE_MODEL=scripted overrides every key', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    vi.stubEnv('AI_GATEWAY_API_KEY', 'gw-test');
    vi.stubEnv('STACKBONE_MODEL', 'scripted');
    expect(resolveModel('openai/gpt-4o-mini')).toMatchObject({ provider: 'scripted', modelId: 'openai/gpt-4o-mini', scripted: true });
    expect(modelMode()).toBe('scripted');
  });

  it('"scripted/…" strings are always scripted', () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', 'gw-test');
    expect(resolveModel('scripted/demo')).toMatchObject({ provider: 'scripted', scripted: true });
  });

  it('reads the environment at call time', () => {
    expect(resolveModel('openai/gpt-4o-mini').scripted).toBe(true);
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-real');
    expect(resolveModel('openai/gpt-4o-mini').scripted).toBe(false);
  });

  it('passes a model object through untouched, even when scripted mode is forced', () => {
    vi.stubEnv('STACKBONE_MODEL', 'scripted');
    const mock = new MockLanguageModelV4({ provider: 'mock', modelId: 'm1' });
    const r = resolveModel(mock);
    expect(r.model).toBe(mock);
    expect(r).toMatchObject({ provider: 'mock', modelId: 'm1', scripted: false });
    expect(modelMode(mock)).toBe('custom');
  });
});

describe('the mode log line', () => {
  it('is said once per mode and never contains a key', async () => {
    vi.resetModules(); // a fresh module: nothing announced yet
    const fresh = await import('./resolve');
    const info = vi.mocked(console.info);

    fresh.resolveModel('openai/gpt-4o-mini');
    fresh.resolveModel('openai/gpt-4o');
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0][0]).toMatch(/no model API key set: using the built-in scripted model/);

    vi.stubEnv('OPENAI_API_KEY', 'sk-secret-value-123');
    fresh.resolveModel('openai/gpt-4o-mini');
    fresh.resolveModel('openai/gpt-4o-mini');
    expect(info).toHaveBeenCalledTimes(2);
    for (const [line] of info.mock.calls) expect(String(line)).not.toContain('sk-secret-value-123');
  });
});
