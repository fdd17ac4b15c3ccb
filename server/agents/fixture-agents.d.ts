// `@stackbone/fixture-agents`, the registry's one import that the build decides: an empty list
// (server/agents/no-fixture-agents.ts), or the tests' fixture agents in a build made with
// STACKBONE_FIXTURE_AGENTS=1 (next.config.ts; docs/internals/architecture.md, "Fixture agents"). It is
// declared here rather than mapped in tsconfig.json: Turbopack reads tsconfig paths too and
// merges them over next.config.ts's aliases, so one there could put the fixtures in every build.
declare module '@stackbone/fixture-agents' {
  export const fixtureAgents: readonly import('@/server/authoring').DeepAgent[];
}
