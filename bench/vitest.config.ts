import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run bench` (bench/run.mjs runs this): the HTTP benchmarks of docs/internals/benchmarks.md. Not part
// of `npm test`: the unit and integration projects include nothing under bench/.
export default defineConfig({
  // The bench measures the product: its registry has no fixture agents, as in `npm run build` (next.config.ts).
  resolve: {
    alias: {
      '@stackbone/fixture-agents': path.resolve(import.meta.dirname, '../server/agents/no-fixture-agents.ts'),
      '@': path.resolve(import.meta.dirname, '..'),
    },
  },
  test: {
    root: path.resolve(import.meta.dirname, '..'),
    include: ['bench/**/*.bench.ts'],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    env: { STACKBONE_MODEL: 'scripted' },
  },
});
