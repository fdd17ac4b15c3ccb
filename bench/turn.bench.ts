// A 500-token streamed reply: the bare scripted model through streamText (the baseline), then
// the same reply as a durable turn — the step loop, the coalesced write and the fold — on the
// in-memory, SQLite and PostgreSQL stores. Each is timed over the same number of turns and
// reported as a ratio to the baseline measured in the same run; results go to
// bench/results/latest.json. Nothing here asserts on time.
import { randomUUID } from 'node:crypto';
import { streamText } from 'ai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgent } from '../server/agents';
import { createScriptedModel } from '../server/models/scripted';
import { startRun } from '../server/runtime/start-run';
import { createMemoryStore } from '../server/store/memory-store';
import { createPrismaStore } from '../server/store/prisma-store';
import type { EventStore } from '../server/store/types';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../tests/support/database';

const TOKENS = 500;
const prompt = `reply with ${TOKENS} tokens`;
const support = findAgent('support')!;
const stores: Record<string, EventStore> = { memory: createMemoryStore() };

beforeAll(async () => {
  stores.sqlite = createPrismaStore(await freshSqliteUrl());
  if (await postgresReachable()) stores.postgres = createPrismaStore(await freshPostgresUrl('stackbone_bench'));
  else console.warn('!!! PostgreSQL not reachable: its benchmark is skipped.');
});
afterAll(async () => {
  await Promise.all(Object.values(stores).map((store) => store.close()));
});

const HISTORY_TURNS = 300;

async function durableTurn(store: EventStore, sessionId: string = randomUUID(), content: string = prompt) {
  const run = await startRun({ agent: support, store, sessionId, ownerId: 'bench', source: 'server', messages: [{ id: randomUUID(), role: 'user', content }] });
  for await (const part of run.parts) void part;
  await run.done;
}

const ITERATIONS = Number(process.env.BENCH_ITERATIONS) || 40;

async function measure(run: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 3; i++) await run(); // warm-up
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await run();
  return (performance.now() - started) / ITERATIONS;
}

describe(`a ${TOKENS}-token streamed turn`, () => {
  it('costs a small multiple of the bare model, on every store', async () => {
    const baseline = await measure(async () => {
      const result = streamText({ model: createScriptedModel(), messages: [{ role: 'user', content: prompt }] });
      for await (const part of result.stream) void part;
    });
    const rows: { variant: string; msPerTurn: number; ratio: number }[] = [{ variant: 'baseline: bare model via streamText', msPerTurn: baseline, ratio: 1 }];
    for (const [name, store] of Object.entries(stores)) {
      const ms = await measure(() => durableTurn(store));
      rows.push({ variant: `durable turn, ${name} store`, msPerTurn: ms, ratio: ms / baseline });
    }
    // A turn on a long session (300 earlier turns, 1,200 events) against a turn on a new one.
    for (const [name, store] of Object.entries(stores)) {
      if (name === 'memory') continue;
      const sessionId = randomUUID();
      for (let turn = 0; turn < HISTORY_TURNS; turn++) await durableTurn(store, sessionId, 'hello');
      const ms = await measure(() => durableTurn(store, sessionId, prompt));
      rows.push({ variant: `durable turn after ${HISTORY_TURNS} turns, ${name} store`, msPerTurn: ms, ratio: ms / baseline });
    }
    console.table(rows.map((row) => ({ variant: row.variant, 'ms/turn': row.msPerTurn.toFixed(2), 'x baseline': row.ratio.toFixed(2) })));
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/latest.json', JSON.stringify({ tokens: TOKENS, iterations: ITERATIONS, at: new Date().toISOString(), rows }, null, 2));
    expect(rows.length).toBeGreaterThan(2);
  });
});
