// defineDeepAgent's defaults and spellings a user meets: an agent without instructions, the
// experimental-a2 spelling of toolApproval (docs/seed-names.md), and instructions worked out
// from the session's state before every model step.
import { tool } from 'ai';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { rateLimitedFirst, recordingSystemPrompts } from '../../tests/support/models';
import { defineDeepAgent, type DeepAgentConfig } from './define';
import { startRun, userMessage } from '../runtime';
import { createMemoryStore } from '../store/memory-store';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const closeTicket = tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ ticketId, closed: true }) });

describe('defineDeepAgent', () => {
  it('gives an agent without instructions a helpful-assistant prompt that carries its description', () => {
    expect(defineDeepAgent({ name: 'bare', model: 'openai/gpt-4o-mini' }).instructions).toBe('You are a helpful assistant. Be brief.');
    expect(defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', description: 'You answer billing questions.' }).instructions).toBe(
      'You are a helpful assistant. You answer billing questions. Be brief.',
    );
  });

  it('keeps an agent’s suggested prompts for the chat, and refuses ones a chip could not show', () => {
    expect(defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', suggestions: ['Where is my order?'] }).suggestions).toEqual(['Where is my order?']);
    expect(defineDeepAgent({ name: 'bare', model: 'openai/gpt-4o-mini' }).suggestions).toEqual([]);
    for (const suggestions of [[''], ['two\nlines'], ['x'.repeat(121)], Array.from({ length: 7 }, (_, index) => `prompt ${index}`)]) {
      expect(() => defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', suggestions })).toThrow(/suggestions are at most 6 prompts/);
    }
  });

  it('names an agent for people: its displayName, else its name in words, and refuses one a title could not show', () => {
    expect(defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', displayName: 'Help desk' }).displayName).toBe('Help desk');
    expect(defineDeepAgent({ name: 'helpdesk', model: 'openai/gpt-4o-mini' }).displayName).toBe('Helpdesk');
    expect(defineDeepAgent({ name: 'ledger-worker', model: 'openai/gpt-4o-mini' }).displayName).toBe('Ledger worker');
    for (const displayName of ['', '  ', 'two\nlines', 'x'.repeat(41), 42 as never]) {
      expect(() => defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', displayName })).toThrow('displayName is one line of 1 to 40 characters');
    }
  });

  it('takes the approval map under harness.generation as under toolApproval, and refuses it under both', () => {
    const seeded = defineDeepAgent({
      name: 'support-tools',
      model: 'openai/gpt-4o-mini',
      tools: { closeTicket },
      harness: { type: 'ai-sdk', generation: { toolApproval: { closeTicket: 'user-approval' } } },
    });
    expect(seeded.toolApproval).toEqual({ closeTicket: 'user-approval' });
    const both: DeepAgentConfig<{ closeTicket: typeof closeTicket }> = {
      name: 'both',
      model: 'openai/gpt-4o-mini',
      tools: { closeTicket },
      toolApproval: { closeTicket: 'approved' },
      harness: { type: 'ai-sdk', generation: { toolApproval: { closeTicket: 'user-approval' } } },
    };
    expect(() => defineDeepAgent(both)).toThrow('give toolApproval or harness.generation.toolApproval, not both');
    // The harness map is checked like toolApproval: a tool it names must exist.
    expect(() =>
      defineDeepAgent({
        name: 'typo',
        model: 'openai/gpt-4o-mini',
        tools: { closeTicket },
        harness: { type: 'ai-sdk', generation: { toolApproval: { closeTickets: 'user-approval' } as never } },
      }),
    ).toThrow('toolApproval names "closeTickets"');
  });

  it('works out dynamic instructions before every model step, from the state as that step finds it', async () => {
    const { model, systemPrompts } = recordingSystemPrompts();
    const seen: { session: unknown }[] = [];
    const planner = defineDeepAgent({
      name: 'taskboard',
      model,
      initialState: { todos: [] },
      instructions: ({ state, session }) => {
        seen.push({ session });
        return `You plan work. Todos so far: ${(state.todos as unknown[]).length}.`;
      },
    });
    const store = createMemoryStore();
    // The scripted model writes the todos in one step (the built-in write_todos) and answers in the next.
    const run = await startRun({
      agent: planner,
      store,
      sessionId: 'o1/t1',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('plan a launch: write post, email list, tweet')],
    });
    await run.done;
    expect(systemPrompts).toEqual(['You plan work. Todos so far: 0.', 'You plan work. Todos so far: 3.']);
    expect(seen[0]).toEqual({ session: { id: 'o1/t1', agent: 'taskboard', ownerId: 'o1', durable: true } });
  });

  it('fails the turn as a server fault, and logs why, when dynamic instructions throw', async () => {
    const broken = defineDeepAgent({
      name: 'broken',
      model: 'openai/gpt-4o-mini',
      instructions: () => {
        throw new Error('the prompt store is down');
      },
    });
    const store = createMemoryStore();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const run = await startRun({ agent: broken, store, sessionId: 'o1/t1', ownerId: 'o1', source: 'agui', messages: [userMessage('hello')] });
      await run.done;
      expect((await store.readEvents('o1/t1')).at(-1)?.event).toMatchObject({ type: 'run_failed', code: 'internal_error' });
      const [, error] = logged.mock.calls.at(-1)!;
      expect(error).toMatchObject({ message: 'Agent "broken": its instructions function threw.', cause: { message: 'the prompt store is down' } });
    } finally {
      logged.mockRestore();
    }
  });

  it('tries a call the provider failed again as many times as maxRetries says, and refuses a count it could not mean', async () => {
    const patient = rateLimitedFirst(2);
    const store = createMemoryStore();
    const answered = await startRun({
      agent: defineDeepAgent({ name: 'patient', model: patient.model }), // the default: 2 more tries
      store,
      sessionId: 'o1/p',
      ownerId: 'o1',
      source: 'agui',
      messages: [userMessage('hello')],
    });
    await answered.done;
    expect(patient.calls()).toBe(3);
    expect((await store.readEvents('o1/p')).at(-1)?.event).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });

    const hasty = rateLimitedFirst(1);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const failed = await startRun({
        agent: defineDeepAgent({ name: 'hasty', model: hasty.model, maxRetries: 0 }),
        store,
        sessionId: 'o1/h',
        ownerId: 'o1',
        source: 'agui',
        messages: [userMessage('hello')],
      });
      await failed.done;
    } finally {
      logged.mockRestore();
    }
    expect(hasty.calls()).toBe(1);
    expect((await store.readEvents('o1/h')).at(-1)?.event).toMatchObject({ type: 'run_failed', code: 'model_error', details: { retryable: true } });

    for (const maxRetries of [-1, 1.5, 11, '2' as never]) {
      expect(() => defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', maxRetries })).toThrow('maxRetries is a whole number from 0 to 10');
    }
  });

  it('takes a context budget in whole tokens, none by default, and refuses one it could not mean', () => {
    expect(defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini' }).contextBudget).toBeUndefined();
    expect(defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', contextBudget: 100_000 }).contextBudget).toBe(100_000);
    for (const contextBudget of [0, 99, 1.5, Number.POSITIVE_INFINITY, '8000' as never]) {
      expect(() => defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', contextBudget })).toThrow(
        'contextBudget is a whole number of tokens, at least 100',
      );
    }
  });
});
