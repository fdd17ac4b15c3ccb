// Preloaded into the flood item's server (bench/measure/flood.ts) with --expose-gc: on SIGUSR2 it
// collects the whole heap and writes `process.memoryUsage()` to BENCH_LIVE_HEAP_DIR/<pid>.json —
// whole, by a rename, so that the bench never reads it half-written. RSS alone cannot tell a leak
// from a heap V8 has grown and keeps; the live heap after a full collection can.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_LIVE_HEAP_DIR;
if (dir && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    const file = path.join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.partial`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.partial`, file);
  });
}
