import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run bench`: throughput of a streamed turn through the whole runtime, each store,
// against the bare model in the same run (ratios, not absolute times).
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, '..') } },
  test: {
    root: path.resolve(import.meta.dirname, '..'),
    include: ['bench/**/*.bench.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    env: { STACKBONE_MODEL: 'scripted' },
  },
});
