import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run bench` (bench/run.mjs runs this): the HTTP benchmarks of docs/internals/benchmarks.md. Not part
// of `npm test`: the unit and integration projects include nothing under bench/.
export default defineConfig({
  // The bench drives the tests' fixture agents (the helpdesk, the ledger), as its build lists them
  // (bench/run.mjs): what it measures is the runtime, which `npm run demo:remove` leaves whole.
  resolve: {
    alias: {
      '@stackbone/fixture-agents': path.resolve(import.meta.dirname, '../tests/fixtures/agents/index.ts'),
      '@': path.resolve(import.meta.dirname, '..'),
    },
  },
  test: {
    root: path.resolve(import.meta.dirname, '..'),
    include: ['bench/**/*.bench.ts'],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    env: { STACKBONE_MODEL: 'scripted', STACKBONE_FIXTURE_AGENTS: '1' },
  },
});
