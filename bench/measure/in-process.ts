// Item 1 in process (the `npm run bench` of before): a 500-token streamed reply through the bare
// scripted model via streamText, and the same reply as a durable turn — the step loop, the
// coalesced write and the fold — on the in-memory, SQLite and PostgreSQL stores, in interleaved
// rounds; ms per turn and the ratio to the bare model measured in the same rounds.
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

const support = findAgent('helpdesk')!;

async function durableTurn(store: EventStore, content: string, sessionId: string = randomUUID()): Promise<void> {
  const run = await startRun({ agent: support, store, sessionId, ownerId: 'bench', source: 'server', messages: [{ id: randomUUID(), role: 'user', content }] });
  for await (const part of run.parts) void part;
  await run.done;
}

/**
 * Milliseconds per turn of each variant, measured in rounds: each round runs one turn of every
 * variant, the order rotating, so that the machine speeding up or slowing down meanwhile moves
 * every variant alike and the ratios hold.
 */
async function msPerTurnInterleaved(variants: (() => Promise<void>)[], turns: number): Promise<number[]> {
  for (let i = 0; i < 3; i++) for (const turn of variants) await turn();
  const spent = variants.map(() => 0);
  for (let round = 0; round < turns; round++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (round + k) % variants.length;
      const started = performance.now();
      await variants[index]!();
      spent[index]! += performance.now() - started;
    }
  }
  return spent.map((ms) => ms / turns);
}

export async function measureInProcess(databases: BenchDatabase[]): Promise<{ tokens: number; turns: number; rows: InProcessRow[] }> {
  const prompt = `reply with ${counts.inProcessTokens} tokens`;
  const stores: [string, EventStore][] = [
    ['memory', createMemoryStore()],
    ...databases.map((db): [string, EventStore] => [db.kind, createPrismaStore(db.url)]),
  ];
  try {
    const bareTurn = async () => {
      const result = streamText({ model: createScriptedModel(), messages: [{ role: 'user', content: prompt }] });
      for await (const part of result.stream) void part;
    };
    const [bare, ...durable] = await msPerTurnInterleaved(
      [
        bareTurn,
        ...stores.map(
          ([, store]) =>
            () =>
              durableTurn(store, prompt),
        ),
      ],
      counts.inProcessTurns,
    );
    const rows: InProcessRow[] = [{ variant: 'bare model via streamText', msPerTurn: round(bare!), ratio: 1 }];
    stores.forEach(([name], index) =>
      rows.push({ variant: `durable turn, ${name} store`, msPerTurn: round(durable[index]!), ratio: round(durable[index]! / bare!) }),
    );
    // A turn on a long session against a turn on a new one (full mode).
    if (counts.inProcessHistoryTurns > 0) {
      for (const [name, store] of stores) {
        if (name === 'memory') continue;
        const sessionId = randomUUID();
        for (let turn = 0; turn < counts.inProcessHistoryTurns; turn++) await durableTurn(store, 'hello', sessionId);
        const [bareAgain, ms] = await msPerTurnInterleaved([bareTurn, () => durableTurn(store, prompt, sessionId)], counts.inProcessTurns);
        rows.push({
          variant: `durable turn after ${counts.inProcessHistoryTurns} turns, ${name} store`,
          msPerTurn: round(ms!),
          ratio: round(ms! / bareAgain!),
        });
      }
    }
    return { tokens: counts.inProcessTokens, turns: counts.inProcessTurns, rows };
  } finally {
    await Promise.all(stores.map(([, store]) => store.close()));
  }
}
