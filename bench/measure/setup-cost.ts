// Item 8 over HTTP: the fixed cost of a durable turn. A short reply (5 tokens) on a new thread
// through POST /api/agents/helpdesk against the same reply from the bare AI SDK route's UI message
// stream (bench/bare-route.ts, the same kind of stream as ours), in turns, one at a time, the
// order alternating. With so little to stream, what is left of ours is the turn's set-up: the
// session's creation, the log's appends, the fold, the run's bookkeeping.
import { oursRun } from '../lib/agui-client';
import { bareSseRun } from '../lib/bare-client';
import { counts } from '../lib/mode';
import { median, round } from '../lib/stats';

export interface SetupCost {
  tokens: number;
  rounds: number;
  /** Medians in ms from sending: the first text delta, and the stream's last byte. */
  firstToken: { oursMs: number; bareMs: number; deltaMs: number };
  lastByte: { oursMs: number; bareMs: number; ratio: number };
}

const prompt = `reply with ${counts.setupTokens} tokens`;

export async function measureSetupCost(baseUrl: string): Promise<SetupCost> {
  for (let i = 0; i < counts.setupWarmup; i++) {
    await oursRun(baseUrl, prompt);
    await bareSseRun(baseUrl, prompt);
  }
  const first = { ours: [] as number[], bare: [] as number[] };
  const total = { ours: [] as number[], bare: [] as number[] };
  for (let i = 0; i < counts.setupRounds; i++) {
    const order = i % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
    for (const which of order) {
      const run = await (which === 'ours' ? oursRun : bareSseRun)(baseUrl, prompt);
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
