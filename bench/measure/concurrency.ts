// Item 4: 200 AG-UI runs sent at once to one process, each on a new thread (a 20-token reply).
// Errors: a refusal, a broken stream, a RUN_ERROR, or a stream that does not end in RUN_FINISHED.
import { randomUUID } from 'node:crypto';
import { runInput, timedRun } from '../lib/agui-client';
import { counts } from '../lib/mode';
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
}

export async function measureConcurrency(baseUrl: string): Promise<Concurrency> {
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: counts.concurrentRuns }, () => timedRun(baseUrl, runInput(randomUUID(), 'reply with 20 tokens'))));
  const wallMs = performance.now() - started;
  const failed = runs.filter((run) => run.failure || run.textDeltas !== 20);
  return {
    runs: runs.length,
    errors: failed.length,
    errorSamples: failed.slice(0, 3).map((run) => run.failure ?? `${run.textDeltas} deltas`),
    firstEvent: summarize(runs.flatMap((run) => (run.firstEventMs === null ? [] : [run.firstEventMs]))),
    firstToken: summarize(runs.flatMap((run) => (run.firstTokenMs === null ? [] : [run.firstTokenMs]))),
    wallMs: round(wallMs),
    turnsPerSecond: round((runs.length - failed.length) / (wallMs / 1000), 1),
  };
}
