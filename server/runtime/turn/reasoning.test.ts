// A model's reasoning through a turn (docs/internals/architecture.md, "Reasoning and provider metadata"):
// streamed before the answer, kept in the log with what the provider said about it, sent back
// to the model on the next step as it came, and replayed to a re-joining client part for part.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import type { AssistantMessage, ChatMessage } from '../../store/messages';
import { reasoningSignature } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { citingSources, recordingPrompts } from '../../../tests/support/models';
import { reduceAll } from '../session/reduce';
import { parseCursor } from '../stream/cursor';
import { follow } from '../stream/follow';
import type { StreamPart } from '../stream/parts';
import { startRun } from '../turn-control/turns';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

function thinker(options: { delayMs?: number } = {}) {
  const { model, prompts } = recordingPrompts(options);
  const agent = defineDeepAgent({
    name: 'thinker',
    model,
    instructions: 'Think first.',
    tools: { lookupOrder: tool({ inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ orderId, status: 'shipped' }) }) },
  });
  return { agent, prompts };
}

async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const all: StreamPart[] = [];
  for await (const entry of parts) all.push(entry);
  return all;
}

const replayOf = (store: EventStore, runId: string) => collect(follow({ store, sessionId: 's1', initialState: {}, after: null, runId }));

const REQUEST = 'think then call lookupOrder {"orderId":"po_42"}';
const THOUGHT = `Before I act, let me think: the request is "call lookupOrder {"orderId":"po_42"}". I'll do exactly that.`;
const SIGNED = { scripted: { signature: reasoningSignature(THOUGHT) } };

describe('reasoning in a turn', () => {
  it('streams the reasoning before the call it led to, and keeps it in the log with its signature', async () => {
    const { agent } = thinker();
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user(REQUEST)] });
    const live = await collect(run.stream());
    await run.done;

    const types = live.map((entry) => entry.part.type);
    expect(types.indexOf('reasoning-start')).toBeLessThan(types.indexOf('tool-call-start'));
    const reasoning = live.flatMap(({ part }) => (part.type === 'reasoning-delta' ? [part.delta] : [])).join('');
    expect(reasoning).toBe(THOUGHT);
    expect(live.find(({ part }) => part.type === 'reasoning-end')!.part).toEqual({
      type: 'reasoning-end',
      messageId: expect.any(String),
      providerMetadata: SIGNED,
    });

    const view = reduceAll(await store.readEvents('s1'));
    const step = view.messages[1] as AssistantMessage;
    expect(step.reasoning).toEqual([{ id: expect.any(String), text: THOUGHT, providerMetadata: SIGNED }]);
    // The call made after thinking carries the thought's signature, as Gemini's function calls do.
    expect(step.toolCalls![0]).toMatchObject({ name: 'lookupOrder', providerMetadata: SIGNED });
    // Every stream names the span by the id the log keeps.
    expect(live.find(({ part }) => part.type === 'reasoning-start')!.part).toEqual({ type: 'reasoning-start', messageId: step.reasoning![0]!.id });
  });

  it("sends step 1's reasoning and call back on step 2 with the signature the model gave them", async () => {
    const { agent, prompts } = thinker();
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user(REQUEST)] });
    await collect(run.stream());
    await run.done;

    expect(prompts).toHaveLength(2);
    const step1 = prompts[1]!.find((message) => message.role === 'assistant')!;
    expect(step1.content).toEqual([
      { type: 'reasoning', text: THOUGHT, providerOptions: SIGNED },
      expect.objectContaining({ type: 'tool-call', toolName: 'lookupOrder', input: { orderId: 'po_42' }, providerOptions: SIGNED }),
    ]);
    // The scripted model refuses a prompt whose reasoning lost its signature (HTTP 400): it answered.
    const view = reduceAll(await store.readEvents('s1'));
    expect(view.status).toBe('idle');
    expect(view.messages.at(-1)!.content).toContain('shipped');
  });

  it('replays a re-joining client the same reasoning parts under the same cursors', async () => {
    const { agent } = thinker();
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('think about durable execution')] });
    const live = await collect(run.stream());
    await run.done;

    expect(live.some(({ part }) => part.type === 'reasoning-delta')).toBe(true);
    expect(await replayOf(store, run.runId)).toEqual(live);
    // A re-join from inside the reasoning gets the rest of it, and nothing twice.
    const inside = live.findIndex(({ part }) => part.type === 'reasoning-delta');
    const rest = await collect(run.stream(parseCursor(live[inside]!.cursor)));
    expect(rest).toEqual(live.slice(inside + 1));
  });

  it('keeps what a stop let through of a span, without the signature its end never brought, and the thread goes on', async () => {
    const { agent, prompts } = thinker({ delayMs: 20 });
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('think about durable execution')] });
    const seen: StreamPart[] = [];
    for await (const entry of run.stream()) {
      seen.push(entry);
      if (entry.part.type === 'reasoning-delta' && seen.filter(({ part }) => part.type === 'reasoning-delta').length === 2) {
        await store.requestStop({ sessionId: 's1', runId: run.runId, by: { source: 'agui' } });
      }
    }
    await run.done;

    const view = reduceAll(await store.readEvents('s1'));
    const cut = view.messages[1] as AssistantMessage;
    expect(cut.content).toBe('');
    expect(cut.reasoning).toHaveLength(1);
    expect(cut.reasoning![0]!.text).toMatch(/^The user/);
    expect(cut.reasoning![0]!.text.length).toBeLessThan('The user wants my thoughts on durable execution.'.length);
    expect(cut.reasoning![0]!.providerMetadata).toBeUndefined();
    // The stream that was cut is closed: its span ends.
    const step = (await store.readEvents('s1')).find(({ event }) => event.type === 'assistant_step')!.event;
    expect(step.type === 'assistant_step' && step.stream?.at(-1)).toEqual({ type: 'reasoning-end', messageId: cut.reasoning![0]!.id });

    // The next turn's prompt does not carry the unsigned span (the scripted model would refuse it).
    const next = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user('hello')] });
    await collect(next.stream());
    await next.done;
    expect(reduceAll(await store.readEvents('s1')).status).toBe('idle');
    expect(prompts.at(-1)!.some((message) => message.role === 'assistant')).toBe(false);
  });
});

describe('what else a provider says about a step', () => {
  it('keeps the sources a step cites and the metadata of its text, and sends the text back with it', async () => {
    const { model, prompts } = citingSources();
    const agent = defineDeepAgent({ name: 'searcher', model, instructions: 'Cite.' });
    const store = createMemoryStore();
    for (const text of ['hello', 'thanks']) {
      const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [user(text)] });
      await run.done;
    }
    const view = reduceAll(await store.readEvents('s1'));
    const first = view.messages[1] as AssistantMessage;
    expect(first.sources).toEqual([{ id: 'src_1', url: 'https://example.com/launch', title: 'Launch notes' }]);
    expect(first.providerMetadata).toEqual({ search: { itemId: 'msg_1' } });
    const sent = prompts[1]!.find((message) => message.role === 'assistant')!;
    expect(sent.content).toEqual([{ type: 'text', text: first.content, providerOptions: { search: { itemId: 'msg_1' } } }]);
  });
});
