// A turn on the OpenAI wire (docs/internals/wires.md, "OpenAI details"): the model's reasoning as
// `reasoning_content` beside `content`, and the usage the model reported, with its cached and
// reasoning tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../authoring';
import type { TokenUsage } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { startRun } from '../../runtime/turn-control/turns';
import { collectChatTurn } from '../chat/turn-events';
import { chatCompletion, completionChunks, DONE } from './output';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({ name: 'thinker', model: 'openai/gpt-4o-mini', instructions: 'Think first.' });
const meta = { id: 'chatcmpl-1', created: 0, model: 'thinker' };
const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });
const start = (store: EventStore, text: string) => startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'openai', messages: [user(text)] });

/** A thread that said hello first, so the second turn reads some of its prompt from the cache; then the turn that thinks. */
async function thinkingTurn() {
  const store = createMemoryStore();
  const hello = await start(store, 'hello');
  await hello.done;
  return { store, run: await start(store, 'think about launch timing') };
}

/** What the log says the thinking turn's one step cost. */
async function stepUsage(store: EventStore): Promise<TokenUsage> {
  const steps = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'assistant_step' && event.usage ? [event.usage] : []));
  return steps.at(-1)!;
}

interface Chunk {
  choices: { delta: { content?: string; reasoning_content?: string } }[];
  usage?: Record<string, unknown> | null;
}

describe('the OpenAI wire', () => {
  it('streams the reasoning as reasoning_content deltas before the content, and ends with the usage the model reported', async () => {
    const { store, run } = await thinkingTurn();
    const chunks: (Chunk | typeof DONE)[] = [];
    for await (const chunk of completionChunks(run, meta, true)) chunks.push(chunk as Chunk | typeof DONE);
    expect(chunks.at(-1)).toBe(DONE);
    const deltas = chunks.flatMap((chunk) => (chunk === DONE ? [] : chunk.choices.map((choice) => choice.delta)));
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe(THOUGHT);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(ANSWER);
    const lastReasoning = deltas.findLastIndex((delta) => delta.reasoning_content);
    const firstContent = deltas.findIndex((delta) => delta.content);
    expect(lastReasoning).toBeLessThan(firstContent);

    const step = await stepUsage(store);
    expect(step.cachedInputTokens).toBeGreaterThan(0);
    expect((chunks.at(-2) as Chunk).usage).toEqual({
      prompt_tokens: step.inputTokens,
      completion_tokens: step.outputTokens,
      total_tokens: step.inputTokens! + step.outputTokens!,
      prompt_tokens_details: { cached_tokens: step.cachedInputTokens },
      completion_tokens_details: { reasoning_tokens: THOUGHT.split(' ').length },
    });
  });

  it('answers a whole completion with reasoning_content beside the content, and the same usage', async () => {
    const { store, run } = await thinkingTurn();
    const completion = chatCompletion(await collectChatTurn(run), meta);
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: ANSWER, reasoning_content: THOUGHT });
    const step = await stepUsage(store);
    expect(completion.usage).toMatchObject({
      prompt_tokens: step.inputTokens,
      completion_tokens: step.outputTokens,
      prompt_tokens_details: { cached_tokens: step.cachedInputTokens },
      completion_tokens_details: { reasoning_tokens: step.reasoningTokens },
    });
  });

  it('has no reasoning_content for a model that did not reason', async () => {
    const store = createMemoryStore();
    const completion = chatCompletion(await collectChatTurn(await start(store, 'hello')), meta);
    expect(completion.choices[0]!.message).not.toHaveProperty('reasoning_content');
    expect(completion.usage.completion_tokens_details).toEqual({ reasoning_tokens: 0 });
  });
});
