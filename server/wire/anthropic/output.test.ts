// A turn on the Anthropic wire (docs/internals/wires.md, "Anthropic details"): the model's reasoning as a
// thinking block with its signature, and the usage the model reported, cache reads apart.
import { beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../authoring';
import type { TokenUsage } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { reasoningSignature } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { startRun } from '../../runtime/turn-control/turns';
import { collectChatTurn } from '../chat/turn-events';
import { message, messageEvents } from './output';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({ name: 'thinker', model: 'openai/gpt-4o-mini', instructions: 'Think first.' });
const meta = { id: 'msg_1', model: 'thinker' };
const THOUGHT = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
const ANSWER = 'Here is what I think about launch timing: it is worth a closer look.';
// Not an Anthropic model: the signature is the provider's metadata of the span, whole.
const SIGNATURE = JSON.stringify({ scripted: { signature: reasoningSignature(THOUGHT) } });

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });
const start = (store: EventStore, text: string) => startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'anthropic', messages: [user(text)] });

async function thinkingTurn() {
  const store = createMemoryStore();
  const hello = await start(store, 'hello');
  await hello.done;
  return { store, run: await start(store, 'think about launch timing') };
}

async function stepUsage(store: EventStore): Promise<TokenUsage> {
  const steps = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'assistant_step' && event.usage ? [event.usage] : []));
  return steps.at(-1)!;
}

interface Data {
  type: string;
  index?: number;
  content_block?: { type: string };
  delta?: { type: string; thinking?: string; signature?: string; text?: string };
  usage?: Record<string, unknown>;
}

describe('the Anthropic wire', () => {
  it('streams a thinking block — thinking deltas, then its signature — before the text block, and ends with the usage', async () => {
    const { store, run } = await thinkingTurn();
    const events: Data[] = [];
    for await (const event of messageEvents(run, meta)) events.push(event.data as Data);

    const blocks = events.filter((event) => event.type === 'content_block_start').map((event) => [event.index, event.content_block!.type]);
    expect(blocks).toEqual([
      [0, 'thinking'],
      [1, 'text'],
    ]);
    const deltas = (index: number) => events.filter((event) => event.type === 'content_block_delta' && event.index === index).map((event) => event.delta!);
    const thinking = deltas(0);
    expect(
      thinking
        .filter((delta) => delta.type === 'thinking_delta')
        .map((delta) => delta.thinking)
        .join(''),
    ).toBe(THOUGHT);
    expect(thinking.at(-1)).toEqual({ type: 'signature_delta', signature: SIGNATURE });
    expect(
      deltas(1)
        .map((delta) => delta.text)
        .join(''),
    ).toBe(ANSWER);
    // Each block closes before the next opens.
    expect(
      events.filter((event) => event.type.startsWith('content_block_') && event.type !== 'content_block_delta').map((event) => `${event.type} ${event.index}`),
    ).toEqual(['content_block_start 0', 'content_block_stop 0', 'content_block_start 1', 'content_block_stop 1']);

    const step = await stepUsage(store);
    expect(step.cachedInputTokens).toBeGreaterThan(0);
    expect(events.find((event) => event.type === 'message_delta')!.usage).toEqual({
      input_tokens: step.inputTokens! - step.cachedInputTokens!,
      output_tokens: step.outputTokens,
      cache_read_input_tokens: step.cachedInputTokens,
    });
  });

  it('answers a whole message with the thinking block first, and the same usage', async () => {
    const { store, run } = await thinkingTurn();
    const body = message(await collectChatTurn(run), meta);
    expect(body.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
      { type: 'text', text: ANSWER },
    ]);
    const step = await stepUsage(store);
    expect(body.usage).toMatchObject({
      input_tokens: step.inputTokens! - step.cachedInputTokens!,
      output_tokens: step.outputTokens,
      cache_read_input_tokens: step.cachedInputTokens,
    });
  });
});
