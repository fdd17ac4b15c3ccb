// The agent registry. Adding an agent is a file in this folder and a line here.
import { fixtureAgents } from '@stackbone/fixture-agents';
import type { DeepAgent } from '../agent-kit';
import { testSetting } from '../config';
import { demoAgents } from '../../examples/demo'; // The demo (examples/demo/; docs/make-it-yours.md)

// The app's own agents first, a line each; then the demo's and the tests' fixtures.
export const agents: readonly DeepAgent[] = [
  ...demoAgents, // The demo (examples/demo/; docs/make-it-yours.md)
  // The tests' fixture agents: only a build made with STACKBONE_FIXTURE_AGENTS=1 has any, and only
  // a server started with it lists them (docs/internals/architecture.md, "Fixture agents").
  ...(testSetting('STACKBONE_FIXTURE_AGENTS') ? fixtureAgents : []),
];

const byName = new Map(agents.map((agent) => [agent.name, agent]));
if (byName.size !== agents.length) throw new Error('Two agents share a name in server/agents/index.ts.');

export function findAgent(name: string): DeepAgent | undefined {
  return byName.get(name);
}
