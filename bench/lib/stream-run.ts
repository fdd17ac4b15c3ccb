// One reply's stream read to its end, timed from sending, as both sides of the stream items
// measure it (bench/measure/stream-overhead.ts, bench/measure/setup-cost.ts).
export interface StreamRun {
  firstTokenMs: number;
  totalMs: number;
  deltas: number;
}
