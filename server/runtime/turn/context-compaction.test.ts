// A long thread through the step loop (docs/models.md, "Long threads"): once it outgrows its
// agent's context budget, the older turns are summarised by the agent's own model before the
// next step, which is sent the summary in their place; the log and the stream keep every
// message and name the compaction; a failed summary falls back to a trim; a failed step does
// not make the summary again.
import type { LanguageModelV4, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failingSummaries } from '../../../tests/support/models';
import { defineDeepAgent, type DeepAgent } from '../../authoring';
import type { ChatMessage } from '../../store/messages';
import { createScriptedModel } from '../../models/scripted';
import { SUMMARY_REQUEST } from '../../models/summary-request';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { reduceAll } from '../session/reduce';
import type { RunPart } from '../stream/parts';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from './run-request';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** The scripted model, keeping every prompt it answers. */
function recording(base: LanguageModelV4 = createScriptedModel()): { model: LanguageModelV4; prompts: LanguageModelV4Prompt[] } {
  const prompts: LanguageModelV4Prompt[] = [];
  return {
    prompts,
    model: {
      ...base,
      async doStream(call) {
        prompts.push(call.prompt);
        return base.doStream(call);
      },
    },
  };
}

const agentOn = (model: LanguageModelV4): DeepAgent =>
  defineDeepAgent({
    name: 'long-talker',
    model,
    instructions: 'Test agent.',
    contextBudget: 100,
    tools: {
      lookupOrder: tool({
        inputSchema: z.object({ orderId: z.string() }),
        execute: async ({ orderId }) => ({ orderId, status: 'shipped', notes: 'Left with a neighbour at number 12. '.repeat(30) }),
      }),
    },
  });

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `u${++counter}`, role: 'user', content });

async function run(store: EventStore, agent: DeepAgent, request: Partial<RunRequest> & { messages: ChatMessage[] }) {
  const started = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', ...request });
  const parts: RunPart[] = [];
  for await (const part of started.parts) parts.push(part);
  await started.done;
  const events = await store.readEvents('s1');
  return { parts, events, view: reduceAll(events, agent.initialState) };
}

/** A prompt as roles and text, one entry per message. */
const promptText = (prompt: LanguageModelV4Prompt) =>
  prompt.map((message) =>
    message.role === 'system'
      ? `system: ${message.content}`
      : `${message.role}: ${message.content.map((part) => (part.type === 'text' ? part.text : part.type)).join(' ')}`,
  );

describe('a thread over its context budget', () => {
  it('is sent a summary of its older turns made by the agent’s model; the log, the stream and the view keep every message', async () => {
    const store = createMemoryStore();
    const { model, prompts } = recording();
    const agent = agentOn(model);
    await run(store, agent, { messages: [user('call lookupOrder {"orderId":"po_42"}')] });
    // Within one turn nothing is compacted, however long: the turn in progress is always sent whole.
    expect(prompts).toHaveLength(2);
    const second = await run(store, agent, { messages: [user('thanks')] });

    const [summaryCall, step] = prompts.slice(2);
    expect(summaryCall!.some((message) => message.role === 'system' && message.content.includes('summaries'))).toBe(true);
    expect(promptText(summaryCall!).at(-1)!.startsWith(`user: ${SUMMARY_REQUEST}`)).toBe(true);
    const compacted = second.events.find(({ event }) => event.type === 'context_compacted')!.event;
    expect(compacted).toMatchObject({
      type: 'context_compacted',
      compaction: {
        method: 'summary',
        summary:
          'The user asked: "call lookupOrder {"orderId":"po_42"}". Tool results: lookupOrder → {"orderId":"po_42","status":"shipped","notes":"Left with a neighbour at number 12. Left with a neig…',
        model: { provider: 'scripted' },
        usage: { inputTokens: expect.any(Number) },
      },
    });

    // The step after it: the instructions, the summary, the turn in progress — none of the older turns.
    expect(promptText(step!)).toEqual([
      'system: Test agent.',
      expect.stringMatching(/^system: Earlier messages .*summarised[\s\S]*The user asked/),
      'user: thanks',
    ]);
    // Every message stays in the log's conversation, and the stream names the compaction before the reply.
    expect(second.view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(second.view.compactions).toEqual([expect.objectContaining({ method: 'summary', throughMessageId: second.view.messages[3]!.id })]);
    const kinds = second.parts.map((part) => part.type);
    expect(kinds.indexOf('context-compacted')).toBeGreaterThan(-1);
    expect(kinds.indexOf('context-compacted')).toBeLessThan(kinds.indexOf('text-start'));
    expect(second.view.compactions[0]!.tokensAfter).toBeLessThan(second.view.compactions[0]!.tokensBefore);
  });

  it('trims its older tool results when the summary call fails, and the turn still runs', async () => {
    const store = createMemoryStore();
    const { model, prompts } = recording(failingSummaries());
    const agent = agentOn(model);
    await run(store, agent, { messages: [user('call lookupOrder {"orderId":"po_42"}')] });
    const second = await run(store, agent, { messages: [user('thanks')] });
    expect(second.view.status).toBe('idle');
    expect(second.view.compactions).toEqual([
      expect.objectContaining({ method: 'trim', summary: expect.stringMatching(/^The summary call failed \(ref \w+\), so 1 older tool result was trimmed/) }),
    ]);
    // Every call still has its result, the long one cut to a note; the user's words are all there.
    expect(promptText(prompts.at(-1)!)).toEqual([
      'system: Test agent.',
      'user: call lookupOrder {"orderId":"po_42"}',
      'assistant: tool-call',
      'tool: tool-result',
      expect.stringMatching(/^assistant: /),
      'user: thanks',
    ]);
    const result = prompts.at(-1)!.find((message) => message.role === 'tool')!.content[0]!;
    expect(JSON.stringify(result)).toContain('[trimmed to fit the context budget');
  });

  it('keeps its compaction when the step after it fails: the retry is sent the same summary, not a new one', async () => {
    const store = createMemoryStore();
    const { model, prompts } = recording();
    const agent = agentOn(model);
    await run(store, agent, { messages: [user('reply with 120 tokens')] });
    const failed = await run(store, agent, { messages: [user('fail once after 3 words')] });
    expect(failed.view.status).toBe('error');
    expect(failed.view.compactions).toHaveLength(1);
    const summaryCalls = () => prompts.filter((prompt) => promptText(prompt).at(-1)!.startsWith(`user: ${SUMMARY_REQUEST}`)).length;
    expect(summaryCalls()).toBe(1);

    const retried = await run(store, agent, { messages: [], retry: { retryId: 'r1' } });
    expect(retried.view.status).toBe('idle');
    expect(summaryCalls()).toBe(1);
    expect(retried.view.compactions).toHaveLength(1);
    expect(promptText(prompts.at(-1)!)).toEqual(['system: Test agent.', expect.stringMatching(/^system: Earlier messages/), 'user: fail once after 3 words']);
  });
});
