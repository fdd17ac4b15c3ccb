// Item 1 in process (the `npm run bench` of before): a 500-token streamed reply through the bare
// scripted model via streamText, then the same reply as a durable turn — the step loop, the
// coalesced write and the fold — on the in-memory, SQLite and PostgreSQL stores; ms per turn and
// the ratio to the bare model measured in the same run.
import { randomUUID } from 'node:crypto';
import { streamText } from 'ai';
import { findAgent } from '../../server/agents';
import { createScriptedModel } from '../../server/models/scripted';
import { startRun } from '../../server/runtime';
import { createMemoryStore } from '../../server/store/memory-store';
import { createPrismaStore } from '../../server/store/prisma-store';
import type { EventStore } from '../../server/store/types';
import { counts } from '../lib/mode';
import { round } from '../lib/stats';
import type { BenchDatabase } from '../lib/servers';

export interface InProcessRow {
  variant: string;
  msPerTurn: number;
  ratio: number;
}

const support = findAgent('support')!;

async function durableTurn(store: EventStore, content: string, sessionId: string = randomUUID()): Promise<void> {
  const run = await startRun({ agent: support, store, sessionId, ownerId: 'bench', source: 'server', messages: [{ id: randomUUID(), role: 'user', content }] });
  for await (const part of run.parts) void part;
  await run.done;
}

async function msPerTurn(turn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 3; i++) await turn();
  const started = performance.now();
  for (let i = 0; i < counts.inProcessTurns; i++) await turn();
  return (performance.now() - started) / counts.inProcessTurns;
}

export async function measureInProcess(databases: BenchDatabase[]): Promise<{ tokens: number; turns: number; rows: InProcessRow[] }> {
  const prompt = `reply with ${counts.inProcessTokens} tokens`;
  const stores: [string, EventStore][] = [
    ['memory', createMemoryStore()],
    ...databases.map((db): [string, EventStore] => [db.kind, createPrismaStore(db.url)]),
  ];
  try {
    const bare = await msPerTurn(async () => {
      const result = streamText({ model: createScriptedModel(), messages: [{ role: 'user', content: prompt }] });
      for await (const part of result.stream) void part;
    });
    const rows: InProcessRow[] = [{ variant: 'bare model via streamText', msPerTurn: round(bare), ratio: 1 }];
    for (const [name, store] of stores) {
      const ms = await msPerTurn(() => durableTurn(store, prompt));
      rows.push({ variant: `durable turn, ${name} store`, msPerTurn: round(ms), ratio: round(ms / bare) });
    }
    // A turn on a long session against a turn on a new one (full mode).
    if (counts.inProcessHistoryTurns > 0) {
      for (const [name, store] of stores) {
        if (name === 'memory') continue;
        const sessionId = randomUUID();
        for (let turn = 0; turn < counts.inProcessHistoryTurns; turn++) await durableTurn(store, 'hello', sessionId);
        const ms = await msPerTurn(() => durableTurn(store, prompt, sessionId));
        rows.push({ variant: `durable turn after ${counts.inProcessHistoryTurns} turns, ${name} store`, msPerTurn: round(ms), ratio: round(ms / bare) });
      }
    }
    return { tokens: counts.inProcessTokens, turns: counts.inProcessTurns, rows };
  } finally {
    await Promise.all(stores.map(([, store]) => store.close()));
  }
}
