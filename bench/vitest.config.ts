import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run bench` (bench/run.mjs runs this): the HTTP benchmarks of docs/benchmarks.md. Not part
// of `npm test`: the unit and integration projects include nothing under bench/.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, '..') } },
  test: {
    root: path.resolve(import.meta.dirname, '..'),
    include: ['bench/**/*.bench.ts'],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    env: { STACKBONE_MODEL: 'scripted' },
  },
});
