// How much each item of `npm run bench` does. `--quick` (bench/run.mjs sets BENCH_MODE=quick)
// keeps every item and both databases within 2 minutes on a 2-core machine; the counts it lowers
// are recorded in results.json next to the figures they produced.
export type BenchMode = 'quick' | 'full';

export const mode: BenchMode = process.env.BENCH_MODE === 'quick' ? 'quick' : 'full';

const quick = mode === 'quick';

export const counts = {
  /** Item 1: alternating ours/bare pairs (the issue asks for ≥ 20). */
  streamRuns: quick ? 20 : 50,
  streamWarmup: quick ? 2 : 5,
  streamTokens: 2000,
  /** Item 1: the second baseline (the AI SDK's SSE stream) is full mode only; the goals use the first. */
  streamSseBaseline: !quick,
  /** Item 1, in process: turns per variant (the `npm run bench` of before). */
  inProcessTurns: quick ? 5 : 40,
  inProcessTokens: 500,
  /** Item 1, in process: the long-session variant is full mode only. */
  inProcessHistoryTurns: quick ? 0 : 300,
  /** Item 3: the thread is the 1,000 messages in both modes; reads per side. */
  reopenMessages: 1000,
  reopenReads: quick ? 10 : 30,
  /** Item 4. */
  concurrentRuns: 200,
  /** Item 5: round trips per path. */
  approvalSamples: quick ? 10 : 30,
  /** Item 6. */
  memoryWarmupTurns: quick ? 10 : 50,
  memoryTurns: quick ? 60 : 1000,
  sessionsTouched: quick ? 1000 : 10_000,
  /** Item 7. */
  subscribers: 50,
  fanoutRounds: quick ? 3 : 20,
  /** Item 8: alternating ours/bare pairs of a short reply on a new thread. */
  setupTokens: 5,
  setupWarmup: quick ? 5 : 20,
  setupRounds: quick ? 60 : 300,
  /** Item 9 (PostgreSQL): sessions paused and approved on another instance, and how many in flight at once. */
  scaleSessions: quick ? 60 : 400,
  scaleWindow: 50,
  /** Item 9: seconds of no traffic over which the instances' own background queries are counted. */
  scaleIdleSeconds: quick ? 2 : 5,
} as const;
