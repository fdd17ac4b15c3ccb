// Item 8 over HTTP: the fixed cost of a durable turn. A short reply (5 tokens) on a new thread
// through POST /api/agents/support against the same reply from the bare AI SDK route's UI message
// stream (bench/bare-route.ts, the same kind of stream as ours), in turns, one at a time, the
// order alternating. With so little to stream, what is left of ours is the turn's set-up: the
// session's creation, the log's appends, the fold, the run's bookkeeping.
import { randomUUID } from 'node:crypto';
import { runInput, timedRun } from '../lib/agui-client';
import { bareRequest } from '../lib/bare-client';
import { counts } from '../lib/mode';
import { readSse } from '../lib/sse';
import { median, round } from '../lib/stats';

export interface SetupCost {
  tokens: number;
  rounds: number;
  /** Medians in ms from sending: the first text delta, and the stream's last byte. */
  firstToken: { oursMs: number; bareMs: number; deltaMs: number };
  lastByte: { oursMs: number; bareMs: number; ratio: number };
}

const prompt = `reply with ${counts.setupTokens} tokens`;

interface ShortRun {
  firstTokenMs: number;
  totalMs: number;
  deltas: number;
}

async function bareRun(baseUrl: string): Promise<ShortRun> {
  const sent = performance.now();
  const response = await bareRequest(baseUrl, prompt, 'sse');
  let firstTokenMs = NaN;
  let deltas = 0;
  const ended = await readSse(response, ({ data, at }) => {
    if (data.includes('"type":"text-delta"') && deltas++ === 0) firstTokenMs = at - sent;
  });
  return { firstTokenMs, totalMs: ended - sent, deltas };
}

async function oursRun(baseUrl: string): Promise<ShortRun> {
  const run = await timedRun(baseUrl, runInput(randomUUID(), prompt));
  if (run.failure) throw new Error(`A ${counts.setupTokens}-token run failed: ${run.failure}`);
  return { firstTokenMs: run.firstTokenMs ?? NaN, totalMs: run.totalMs, deltas: run.textDeltas };
}

export async function measureSetupCost(baseUrl: string): Promise<SetupCost> {
  for (let i = 0; i < counts.setupWarmup; i++) {
    await oursRun(baseUrl);
    await bareRun(baseUrl);
  }
  const first = { ours: [] as number[], bare: [] as number[] };
  const total = { ours: [] as number[], bare: [] as number[] };
  for (let i = 0; i < counts.setupRounds; i++) {
    const order = i % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
    for (const which of order) {
      const run = await (which === 'ours' ? oursRun : bareRun)(baseUrl);
      if (run.deltas !== counts.setupTokens) throw new Error(`The ${which} side streamed ${run.deltas} tokens, not ${counts.setupTokens}.`);
      first[which].push(run.firstTokenMs);
      total[which].push(run.totalMs);
    }
  }
  const [firstOurs, firstBare, totalOurs, totalBare] = [median(first.ours), median(first.bare), median(total.ours), median(total.bare)];
  return {
    tokens: counts.setupTokens,
    rounds: counts.setupRounds,
    firstToken: { oursMs: round(firstOurs), bareMs: round(firstBare), deltaMs: round(firstOurs - firstBare) },
    lastByte: { oursMs: round(totalOurs), bareMs: round(totalBare), ratio: round(totalOurs / totalBare, 3) },
  };
}
