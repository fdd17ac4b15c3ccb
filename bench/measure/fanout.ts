// Item 7: live fan-out. 50 clients follow one thread's session stream (docs/internals/architecture.md,
// "Streams and cursors"); a 51st sends a run on the thread. Timed from sending the run to its
// RUN_STARTED reaching each follower; and, as the runtime's own share, from RUN_STARTED reaching
// the sender to it reaching each follower.
import { randomUUID } from 'node:crypto';
import { completedRun, hydrate, openSessionStream, runInput, timedRun } from '../lib/agui-client';
import { counts } from '../lib/mode';
import { readSse } from '../lib/sse';
import { round, summarize, type Summary } from '../lib/stats';
import { withTimeout } from './approval';

export interface Fanout {
  subscribers: number;
  rounds: number;
  /** Sending the run → RUN_STARTED at each follower (subscribers × rounds samples). */
  sendToSubscriber: Summary;
  /** RUN_STARTED at the sender → at each follower. */
  afterSender: Summary;
  /** Sending the run → RUN_STARTED at the sender, for reference. */
  senderFirstEventMs: number;
}

export async function measureFanout(baseUrl: string): Promise<Fanout> {
  const threadId = randomUUID();
  await completedRun(baseUrl, runInput(threadId, 'reply with 5 tokens'));
  const { cursor } = await hydrate(baseUrl, threadId);
  const abort = new AbortController();
  // Each follower reports, per run id, when that run's RUN_STARTED reached it.
  const waiting = new Map<string, ((at: number) => void)[]>();
  const arrivals = (runId: string) =>
    Array.from(
      { length: counts.subscribers },
      () => new Promise<number>((resolve) => (waiting.get(runId) ?? waiting.set(runId, []).get(runId)!).push(resolve)),
    );
  try {
    const streams = await Promise.all(Array.from({ length: counts.subscribers }, () => openSessionStream(baseUrl, threadId, cursor, abort.signal)));
    const followed = streams.map((stream, index) =>
      readSse(stream, ({ data, at }) => {
        const started = /"type":"RUN_STARTED".*?"runId":"([^"]+)"/.exec(data);
        if (started) waiting.get(started[1]!)?.[index]?.(at);
      }).catch(() => undefined),
    );
    const toSubscriber: number[] = [];
    const afterSender: number[] = [];
    const senderFirst: number[] = [];
    for (let pass = 0; pass < counts.fanoutRounds + 1; pass++) {
      const input = runInput(threadId, 'reply with 5 tokens');
      const arrived = arrivals(input.runId);
      const sent = performance.now();
      const run = await timedRun(baseUrl, input);
      if (run.failure) throw new Error(`A fan-out run failed: ${run.failure}`);
      const at = await withTimeout(Promise.all(arrived), 10_000, `RUN_STARTED at ${counts.subscribers} followers`);
      if (pass === 0) continue; // warm-up
      const senderAt = sent + run.firstEventMs!;
      senderFirst.push(run.firstEventMs!);
      for (const t of at) {
        toSubscriber.push(t - sent);
        afterSender.push(t - senderAt);
      }
    }
    abort.abort();
    await Promise.all(followed);
    return {
      subscribers: counts.subscribers,
      rounds: counts.fanoutRounds,
      sendToSubscriber: summarize(toSubscriber),
      afterSender: summarize(afterSender),
      senderFirstEventMs: round(senderFirst.reduce((a, b) => a + b, 0) / senderFirst.length),
    };
  } finally {
    abort.abort();
  }
}
