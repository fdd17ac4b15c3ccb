// What `@stackbone/fixture-agents` is in a product build: no agents. A build made with
// STACKBONE_FIXTURE_AGENTS=1 — the tests' — resolves it to the tests' fixture list instead
// (next.config.ts; docs/internals/architecture.md, "Fixture agents").
import type { DeepAgent } from '../agent-kit';

export const fixtureAgents: readonly DeepAgent[] = [];
