// What model calls cost (docs/internals/architecture.md, "Usage"): each step keeps its own usage, a run's
// end says what all of its steps cost, and the thread keeps the sum of every run, per model.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import type { TokenUsage } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { RunPart } from '../stream/parts';
import { startRun } from '../turn-control/turns';
import { reduceAll } from './reduce';
import { addUsage, totalUsage } from './usage';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const agent = defineDeepAgent({
  name: 'desk',
  model: 'openai/gpt-4o-mini',
  instructions: 'Be brief.',
  tools: { lookupOrder: tool({ inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ orderId, status: 'shipped' }) }) },
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

async function turn(store: EventStore, text: string): Promise<RunPart[]> {
  const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user(text)] });
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

/** Each step's usage as the log keeps it. */
async function stepUsages(store: EventStore): Promise<TokenUsage[]> {
  return (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'assistant_step' && event.usage ? [event.usage] : []));
}

describe('usage', () => {
  it("keeps each step's usage, and ends the run with the sum of its steps", async () => {
    const store = createMemoryStore();
    const parts = await turn(store, 'think then call lookupOrder {"orderId":"po_42"}');
    const steps = await stepUsages(store);
    expect(steps).toHaveLength(2);
    // Step 1 thought before it called: its reasoning counts in its output, and as reasoning.
    expect(steps[0]!.reasoningTokens).toBeGreaterThan(0);
    expect(steps[0]!.outputTokens).toBeGreaterThan(steps[0]!.reasoningTokens!);
    // Step 2 read step 1 again: the prompt up to the model's own message counts as cached.
    expect(steps[1]!.cachedInputTokens).toBeGreaterThan(0);
    expect(steps[1]!.cachedInputTokens).toBeLessThan(steps[1]!.inputTokens!);

    const sum = (key: keyof TokenUsage) => steps.reduce((n, step) => n + step[key]!, 0);
    expect(parts.at(-1)).toEqual({
      type: 'run-finished',
      outcome: { type: 'success' },
      usage: [
        {
          provider: 'scripted',
          model: 'openai/gpt-4o-mini',
          inputTokens: sum('inputTokens'),
          outputTokens: sum('outputTokens'),
          reasoningTokens: sum('reasoningTokens'),
          cachedInputTokens: sum('cachedInputTokens'),
        },
      ],
    });
  });

  it('reports each run its own calls, and the thread all of them', async () => {
    const store = createMemoryStore();
    const first = await turn(store, 'hello');
    const second = await turn(store, 'think about launch timing');
    const usageOf = (parts: RunPart[]) => {
      const last = parts.at(-1)!;
      return last.type === 'run-finished' ? totalUsage(last.usage ?? []) : undefined;
    };
    const steps = await stepUsages(store);
    expect(usageOf(first)).toEqual(totalUsage([steps[0]!]));
    expect(usageOf(second)).toEqual(totalUsage([steps[1]!]));

    const view = reduceAll(await store.readEvents('s1'));
    expect(totalUsage(view.lastRun!.usage)).toEqual(usageOf(second));
    expect(totalUsage(view.usage)).toEqual(totalUsage(steps));
  });
});

describe('summing usage', () => {
  it('keeps one entry per provider and model', () => {
    const openai = { provider: 'openai', id: 'gpt-5' };
    const anthropic = { provider: 'anthropic', id: 'claude-sonnet-4-5' };
    let entries = addUsage([], { inputTokens: 100, outputTokens: 20 }, openai);
    entries = addUsage(entries, { inputTokens: 50, outputTokens: 5, cachedInputTokens: 40 }, anthropic);
    entries = addUsage(entries, { inputTokens: 10, outputTokens: 2, reasoningTokens: 1 }, openai);
    expect(entries).toEqual([
      { provider: 'openai', model: 'gpt-5', inputTokens: 110, outputTokens: 22, reasoningTokens: 1 },
      { provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 50, outputTokens: 5, cachedInputTokens: 40 },
    ]);
    expect(totalUsage(entries)).toEqual({ inputTokens: 160, outputTokens: 27, reasoningTokens: 1, cachedInputTokens: 40 });
  });

  it('tells a count never reported from a count of 0, and adds nothing for a step that reported none', () => {
    const model = { provider: 'openai', id: 'gpt-5' };
    const entries = addUsage([], { inputTokens: 7, outputTokens: 0 }, model);
    expect(entries).toEqual([{ provider: 'openai', model: 'gpt-5', inputTokens: 7, outputTokens: 0 }]);
    expect(addUsage(entries, {}, model)).toBe(entries);
    expect(addUsage(entries, undefined, model)).toBe(entries);
  });
});
