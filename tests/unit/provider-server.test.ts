// The provider test server (tests/support/provider-server.ts) speaks what the real clients read:
// the AI SDK's providers (@ai-sdk/openai chat and responses, @ai-sdk/anthropic) turn its streams
// into the scripted text, parallel tool calls, reasoning with its signature or encrypted_content,
// and usage; the official SDKs' stream accumulators (`openai`, `@anthropic-ai/sdk`), which refuse
// events out of order, assemble the same message from them; its failures are what the AI SDK
// retries (429 after retry-after, 529) and its cut is an error. The integration tests
// (tests/integration/real-providers.test.ts) point the app server at it.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { streamText, tool, type LanguageModel, type ModelMessage } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startProviderServer, type ProviderServer, type ScriptedReply } from '../support/provider-server';

let provider: ProviderServer;
beforeAll(async () => {
  provider = await startProviderServer();
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const tools = { lookupOrder: tool({ description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }) }) };
const twoLookups: ScriptedReply = {
  text: 'Looking both up.',
  toolCalls: [
    { id: 'call_a', name: 'lookupOrder', input: { orderId: 'po_42' } },
    { id: 'call_b', name: 'lookupOrder', input: { orderId: 'po_7' } },
  ],
  usage: { inputTokens: 31, outputTokens: 17 },
};

const models = {
  'openai-chat': () => createOpenAI({ apiKey: 'test', baseURL: provider.baseUrl }).chat('gpt-4o-mini'),
  'openai-responses': () => createOpenAI({ apiKey: 'test', baseURL: provider.baseUrl }).responses('o4-mini'),
  anthropic: () => createAnthropic({ apiKey: 'test', baseURL: provider.baseUrl })('claude-sonnet-4-6'),
} satisfies Record<string, () => LanguageModel>;

async function oneStep(model: LanguageModel, messages: ModelMessage[] = [{ role: 'user', content: 'look up po_42 and po_7' }], providerOptions = {}) {
  const result = streamText({ model, messages, tools, maxRetries: 2, providerOptions });
  return {
    text: await result.text,
    toolCalls: (await result.toolCalls).map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input })),
    reasoning: await result.reasoning,
    usage: await result.usage,
    messages: (await result.response).messages,
  };
}

describe.each(Object.keys(models) as (keyof typeof models)[])('the %s format, read by the AI SDK', (format) => {
  it('streams text, parallel tool calls with streamed arguments, and usage', async () => {
    provider.script(twoLookups);
    const step = await oneStep(models[format]());
    expect(step.text).toBe('Looking both up.');
    expect(step.toolCalls).toEqual([
      { id: 'call_a', name: 'lookupOrder', input: { orderId: 'po_42' } },
      { id: 'call_b', name: 'lookupOrder', input: { orderId: 'po_7' } },
    ]);
    expect(step.usage).toMatchObject({ inputTokens: 31, outputTokens: 17 });
    expect(provider.requests.map((request) => request.format)).toEqual([format]);
    expect(await provider.requests[0]!.ended).toBe('finished');
  });

  it('retries a 429 after its retry-after, and answers', async () => {
    provider.script({ status: 429, retryAfter: '1' }, { text: 'Fine now.' });
    expect((await oneStep(models[format]())).text).toBe('Fine now.');
    const [first, second] = provider.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('fails on a stream cut mid-way, keeping what came before', async () => {
    provider.script({ text: 'one two three four five six', cutAfter: 6 });
    const result = streamText({ model: models[format](), prompt: 'hi', maxRetries: 0 });
    const parts: string[] = [];
    let failure: unknown;
    try {
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') parts.push(part.text);
        if (part.type === 'error') failure = part.error;
      }
    } catch (error) {
      failure = error; // the cut breaks the stream itself
    }
    expect(failure).toBeDefined();
    expect(parts.join('')).not.toBe('one two three four five six');
    expect(await provider.requests[0]!.ended).toBe('cut');
  });
});

describe('reasoning, read by the AI SDK and sent back on the next step', () => {
  it('Anthropic: a thinking block keeps its signature, and goes back with it', async () => {
    provider.script({ reasoning: { text: 'The user wants po_42.', signature: 'sig-EqQB-42' }, toolCalls: [twoLookups.toolCalls![0]!] }, { text: 'Done.' });
    const first = await oneStep(models.anthropic());
    expect(first.reasoning).toEqual([
      expect.objectContaining({ text: 'The user wants po_42.', providerMetadata: { anthropic: { signature: 'sig-EqQB-42' } } }),
    ]);
    await oneStep(models.anthropic(), [
      { role: 'user', content: 'look up po_42' },
      ...first.messages,
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'lookupOrder', output: { type: 'text', value: 'found' } }] },
    ]);
    const sentBack = (provider.requests[1]!.body.messages as { role: string; content: unknown }[])[1]!;
    expect(sentBack).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants po_42.', signature: 'sig-EqQB-42' },
        { type: 'tool_use', id: 'call_a' },
      ],
    });
  });

  it('OpenAI Responses: a reasoning item keeps its encrypted_content (store: false), and goes back with it', async () => {
    provider.script(
      { reasoning: { text: 'Look it up first.', itemId: 'rs_1', encryptedContent: 'gAAAA-encrypted' }, toolCalls: [twoLookups.toolCalls![0]!] },
      { text: 'Done.' },
    );
    const options = { openai: { store: false } };
    const first = await oneStep(models['openai-responses'](), undefined, options);
    expect(provider.requests[0]!.body.include).toEqual(['reasoning.encrypted_content']);
    expect(first.reasoning).toEqual([
      expect.objectContaining({ text: 'Look it up first.', providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAAA-encrypted' } } }),
    ]);
    await oneStep(
      models['openai-responses'](),
      [
        { role: 'user', content: 'look up po_42' },
        ...first.messages,
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'lookupOrder', output: { type: 'text', value: 'found' } }] },
      ],
      options,
    );
    expect(provider.requests[1]!.body.input).toContainEqual(expect.objectContaining({ type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAA-encrypted' }));
  });
});

describe('the official SDKs assemble the same messages from the streams', () => {
  const reply: ScriptedReply = { reasoning: { text: 'Both orders.', signature: 'sig-1', encryptedContent: 'gAAAA-1' }, ...twoLookups };

  it('openai: Chat Completions', async () => {
    provider.script({ ...reply, reasoning: undefined });
    const openai = new OpenAI({ apiKey: 'test', baseURL: provider.baseUrl, maxRetries: 0 });
    const stream = openai.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]!.message).toMatchObject({
      content: 'Looking both up.',
      tool_calls: [
        { id: 'call_a', function: { name: 'lookupOrder', arguments: '{"orderId":"po_42"}' } },
        { id: 'call_b', function: { name: 'lookupOrder', arguments: '{"orderId":"po_7"}' } },
      ],
    });
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 17 });
  });

  it('openai: Responses', async () => {
    provider.script(reply);
    const openai = new OpenAI({ apiKey: 'test', baseURL: provider.baseUrl, maxRetries: 0 });
    const response = await openai.responses.stream({ model: 'o4-mini', input: 'hi' }).finalResponse();
    expect(response.output).toMatchObject([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Both orders.' }], encrypted_content: 'gAAAA-1' },
      { type: 'message', content: [{ type: 'output_text', text: 'Looking both up.' }] },
      { type: 'function_call', call_id: 'call_a', arguments: '{"orderId":"po_42"}' },
      { type: 'function_call', call_id: 'call_b', arguments: '{"orderId":"po_7"}' },
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 31, output_tokens: 17 });
  });

  it('@anthropic-ai/sdk: Messages', async () => {
    provider.script(reply);
    const client = new Anthropic({ apiKey: 'test', baseURL: provider.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
    const message = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.content).toMatchObject([
      { type: 'thinking', thinking: 'Both orders.', signature: 'sig-1' },
      { type: 'text', text: 'Looking both up.' },
      { type: 'tool_use', id: 'call_a', input: { orderId: 'po_42' } },
      { type: 'tool_use', id: 'call_b', input: { orderId: 'po_7' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 31, output_tokens: 17 });
  });

  it('@anthropic-ai/sdk: a 529 is overloaded_error', async () => {
    provider.script({ status: 529, message: 'Overloaded' });
    const client = new Anthropic({ apiKey: 'test', baseURL: provider.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
    const failure = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
  });
});
