// Preloaded into the flood item's server (bench/measure/flood.ts) with --expose-gc: on SIGUSR2 it
// collects the whole heap and writes what is still live to BENCH_LIVE_HEAP_DIR/<pid>.json. RSS alone
// cannot tell a leak from a heap V8 has grown and keeps; the live heap after a full collection can.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_LIVE_HEAP_DIR;
if (dir && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ heapUsed, external, arrayBuffers, rss }));
  });
}
