// A model's reasoning and a run's usage as an AG-UI client sees them (docs/internals/architecture.md,
// "Reasoning and provider metadata", "Usage"): the real @ag-ui/client HttpAgent reading the
// wire's SSE of a real run, as the route serves it.
import type { BaseEvent, Message } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgUiClient } from '../../../tests/support/agui-in-process';
import { defineDeepAgent } from '../../authoring';
import { reasoningSignature } from '../../models/scripted';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({ name: 'thinker', model: 'openai/gpt-4o-mini', instructions: 'Think first.' });

const client = () => inProcessAgUiClient(agent);

const roles = (messages: Message[]) => messages.map((message) => message.role);
const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';
/** The scripted model's count: words. */
const words = (...texts: string[]) => texts.join(' ').split(' ').length;

describe('reasoning on the AG-UI wire', () => {
  it('reaches the client as a reasoning message before the answer, with its encrypted value', async () => {
    const { http, events, send } = client();
    await send('think about launch timing');

    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
    const types: string[] = events.map((event) => event.type);
    const reasoning = [
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_ENCRYPTED_VALUE',
      'REASONING_END',
    ];
    for (const type of reasoning) expect(types).toContain(type);
    expect(types.indexOf('REASONING_END')).toBeLessThan(types.indexOf('TEXT_MESSAGE_START'));

    expect(roles(http.messages)).toEqual(['user', 'reasoning', 'assistant']);
    expect(http.messages[1]).toEqual({
      id: expect.any(String),
      role: 'reasoning',
      content: THOUGHT,
      encryptedValue: JSON.stringify({ scripted: { signature: reasoningSignature(THOUGHT) } }),
    });
    expect(http.messages[2]!.content).toBe(ANSWER);
  });

  it("ends the run with its usage, in AG-UI 1.0's own field", async () => {
    const { events, send } = client();
    await send('think about launch timing');
    const finished = events.find((event) => event.type === 'RUN_FINISHED') as BaseEvent & { usage?: unknown[] };
    expect(finished.usage).toEqual([
      {
        provider: 'scripted',
        model: 'openai/gpt-4o-mini',
        inputTokens: words('Think first.', 'think about launch timing'),
        outputTokens: words(THOUGHT, ANSWER),
        reasoningTokens: words(THOUGHT),
        cachedInputTokens: 0,
        totalTokens: words('Think first.', 'think about launch timing', THOUGHT, ANSWER),
      },
    ]);
  });

  it('takes the history back with its reasoning messages, adding nothing, and keeps them once', async () => {
    const { http, send } = client();
    await send('think about launch timing');
    const first = http.messages[1]!;
    // The second run sends the whole history, the reasoning message included: not refused, not added.
    await send('hello');
    expect(roles(http.messages)).toEqual(['user', 'reasoning', 'assistant', 'user', 'assistant']);
    expect(http.messages[1]).toEqual(first);
  });
});
