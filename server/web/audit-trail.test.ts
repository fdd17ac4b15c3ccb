// Studio's audit trail says what each run's model calls cost (docs/internals/architecture.md, "Usage"):
// the end of a run reads "1,500 tokens in, 20 out", from the steps the log kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../authoring';
import { createMemoryStore } from '../store/memory-store';
import { startRun } from '../runtime/turn-control/turns';
import { loadAuditTrail } from './audit-trail';

const store = createMemoryStore();
const cache = globalThis as typeof globalThis & { __stackboneStore?: unknown };

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  cache.__stackboneStore = store;
});
afterAll(() => {
  cache.__stackboneStore = undefined;
});

const agent = defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', instructions: 'Be brief.' });

async function turn(text: string) {
  const run = await startRun({
    agent,
    store,
    sessionId: 'o1/t1',
    ownerId: 'o1',
    source: 'agui',
    messages: [{ id: crypto.randomUUID(), role: 'user', content: text }],
  });
  await run.done;
}

describe("the audit trail's runs", () => {
  it('end with what their model calls cost, in and out', async () => {
    await turn('reply with 1500 tokens');
    await turn('hello');
    const trail = await loadAuditTrail('o1', 't1');
    const ends = trail!.entries.filter((entry) => entry.kind === 'run' && entry.summary.startsWith('Run finished'));
    // "Be brief." and the request in; the 1,500 tokens out. The second run read all of that again.
    expect(ends[0]!.summary).toBe('Run finished — 6 tokens in, 1,500 out');
    expect(ends[1]!.summary).toMatch(/^Run finished — 1,507 tokens in, \d+ out$/);
    expect(ends[0]!.details).toMatchObject({ usage: { inputTokens: 6, outputTokens: 1500, reasoningTokens: 0, cachedInputTokens: 0 } });
  });
});
