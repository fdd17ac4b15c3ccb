// Item 1 over HTTP: a 2,000-token scripted reply through POST /api/agents/helpdesk against the
// same scripted model streamed by the bare AI SDK route (bench/bare-route.ts), in the same
// process, in turns, one run at a time. Two baselines: the text stream (the least a route can
// send; the goals are judged against it) and the AI SDK's SSE UI message stream (the same kind of
// stream as ours). First token: the first text bytes / `text-delta` / AG-UI TEXT_MESSAGE_CONTENT;
// total: the stream's last byte.
import { counts } from '../lib/mode';
import { oursRun } from '../lib/agui-client';
import { bareRequest, bareSseRun } from '../lib/bare-client';
import type { StreamRun } from '../lib/stream-run';
import { median, round } from '../lib/stats';

export interface Side {
  /** Medians in ms; `bare` is the text-stream baseline. */
  oursMs: number;
  bareMs: number;
  ratio: number;
  /** ours − bare, ms (the goal for first token is stated this way). */
  deltaMs: number;
  /** Against the SSE baseline (the AI SDK's UI message stream); null in quick mode. */
  bareSseMs: number | null;
  ratioSse: number | null;
  deltaSseMs: number | null;
}

export interface StreamOverhead {
  ttft: Side;
  total: Side;
  runs: number;
}

const prompt = `reply with ${counts.streamTokens} tokens`;

type Which = 'ours' | 'bare' | 'bareSse';

async function bareTextRun(baseUrl: string): Promise<StreamRun> {
  const sent = performance.now();
  const response = await bareRequest(baseUrl, prompt, 'text');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstTokenMs = NaN;
  let text = '';
  while (true) {
    const { done, value } = await reader.read();
    const at = performance.now();
    if (done) return { firstTokenMs, totalMs: at - sent, deltas: text.match(/\S+/g)?.length ?? 0 };
    if (value.length > 0 && Number.isNaN(firstTokenMs)) firstTokenMs = at - sent;
    text += decoder.decode(value, { stream: true });
  }
}

const RUNNERS: Record<Which, (baseUrl: string) => Promise<StreamRun>> = {
  ours: (baseUrl) => oursRun(baseUrl, prompt),
  bare: bareTextRun,
  bareSse: (baseUrl) => bareSseRun(baseUrl, prompt),
};

function side(samples: Record<Which, number[]>): Side {
  const [o, b] = [median(samples.ours), median(samples.bare)];
  const s = samples.bareSse.length > 0 ? median(samples.bareSse) : null;
  return {
    oursMs: round(o),
    bareMs: round(b),
    ratio: round(o / b, 3),
    deltaMs: round(o - b),
    bareSseMs: s && round(s),
    ratioSse: s && round(o / s, 3),
    deltaSseMs: s && round(o - s),
  };
}

export async function measureStreamOverhead(baseUrl: string): Promise<StreamOverhead> {
  const kinds: Which[] = counts.streamSseBaseline ? ['ours', 'bare', 'bareSse'] : ['ours', 'bare'];
  for (let i = 0; i < counts.streamWarmup; i++) for (const which of kinds) await RUNNERS[which](baseUrl);
  const first: Record<Which, number[]> = { ours: [], bare: [], bareSse: [] };
  const total: Record<Which, number[]> = { ours: [], bare: [], bareSse: [] };
  for (let i = 0; i < counts.streamRuns; i++) {
    // Rotate the order, so that no side always follows the same other.
    const order = kinds.map((_, k) => kinds[(i + k) % kinds.length]!);
    for (const which of order) {
      const run = await RUNNERS[which](baseUrl);
      if (run.deltas !== counts.streamTokens) throw new Error(`The ${which} side streamed ${run.deltas} tokens, not ${counts.streamTokens}.`);
      first[which].push(run.firstTokenMs);
      total[which].push(run.totalMs);
    }
  }
  return { ttft: side(first), total: side(total), runs: counts.streamRuns };
}
