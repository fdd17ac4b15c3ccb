// Item 4: 200 AG-UI runs sent at once to one process, each on a new thread (a 20-token reply).
// Errors: a refusal, a broken stream, a RUN_ERROR, or a stream that does not end in RUN_FINISHED.
// The baseline: as many requests at once to the bare AI SDK route (bench/bare-route.ts, its SSE
// format) on the same server, just before — what the same process, HTTP stack and model cost
// with no session at all, timed to its first SSE event.
import { randomUUID } from 'node:crypto';
import { runInput, timedRun } from '../lib/agui-client';
import { bareRequest } from '../lib/bare-client';
import { counts } from '../lib/mode';
import { readSse } from '../lib/sse';
import { round, summarize, type Summary } from '../lib/stats';

export interface Concurrency {
  runs: number;
  errors: number;
  errorSamples: string[];
  /** ms from sending to the first SSE event (RUN_STARTED). */
  firstEvent: Summary;
  firstToken: Summary;
  /** From the first request sent to the last stream ended. */
  wallMs: number;
  turnsPerSecond: number;
  /** The same burst to the bare AI SDK route: ms to its first SSE event, and its wall time. */
  bare: { firstEvent: Summary; wallMs: number; failures: number };
  /** Our p99 time to first event over the bare route's. */
  firstEventP99Ratio: number;
}

const TOKENS = 20;
const prompt = `reply with ${TOKENS} tokens`;

/** ms to the bare route's first SSE event; null when it failed (counted, not thrown: one of a burst). */
async function bareFirstEvent(baseUrl: string): Promise<number | null> {
  const sent = performance.now();
  try {
    const response = await bareRequest(baseUrl, prompt, 'sse');
    let first: number | null = null;
    await readSse(response, ({ at }) => {
      first ??= at - sent;
    });
    return first;
  } catch {
    return null;
  }
}

export async function measureConcurrency(baseUrl: string): Promise<Concurrency> {
  const bareStarted = performance.now();
  const bare = await Promise.all(Array.from({ length: counts.concurrentRuns }, () => bareFirstEvent(baseUrl)));
  const bareWallMs = performance.now() - bareStarted;
  const bareFirst = summarize(bare.flatMap((ms) => (ms === null ? [] : [ms])));
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: counts.concurrentRuns }, () => timedRun(baseUrl, runInput(randomUUID(), prompt))));
  const wallMs = performance.now() - started;
  const failed = runs.filter((run) => run.failure || run.textDeltas !== TOKENS);
  const firstEvent = summarize(runs.flatMap((run) => (run.firstEventMs === null ? [] : [run.firstEventMs])));
  return {
    runs: runs.length,
    errors: failed.length,
    errorSamples: failed.slice(0, 3).map((run) => run.failure ?? `${run.textDeltas} deltas`),
    firstEvent,
    firstToken: summarize(runs.flatMap((run) => (run.firstTokenMs === null ? [] : [run.firstTokenMs]))),
    wallMs: round(wallMs),
    turnsPerSecond: round((runs.length - failed.length) / (wallMs / 1000), 1),
    bare: { firstEvent: bareFirst, wallMs: round(bareWallMs), failures: bare.filter((ms) => ms === null).length },
    firstEventP99Ratio: round(firstEvent.p99 / bareFirst.p99, 2),
  };
}
