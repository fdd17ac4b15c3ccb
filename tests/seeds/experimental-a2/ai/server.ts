// `experimental-a2/ai/server` as the seeds import it, in this app's names (docs/seed-names.md):
// tests/seeds/tsconfig.json and the tests' alias (vitest.config.ts) point the seed's import here.
export { defineDeepAgent as agent } from '../../../../server/agent-kit';
export { runWithHandlerContext } from '../../../../server/runtime';
