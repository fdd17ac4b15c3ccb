// The agent registry. Adding an agent is a file in this folder and a line here.
import { fixtureAgents } from '@stackbone/fixture-agents';
import type { DeepAgent } from '../agent-kit';
import mcpDemo from './mcp-demo';
import planner from './planner';
import researcher from './researcher';
import support from './support';
import { testSetting } from '../config';

export const agents: readonly DeepAgent[] = [
  support,
  planner,
  researcher,
  mcpDemo,
  // The tests' fixture agents: only a build made with STACKBONE_FIXTURE_AGENTS=1 has any, and only
  // a server started with it lists them (docs/internals/architecture.md, "Fixture agents").
  ...(testSetting('STACKBONE_FIXTURE_AGENTS') ? fixtureAgents : []),
];

const byName = new Map(agents.map((agent) => [agent.name, agent]));
if (byName.size !== agents.length) throw new Error('Two agents share a name in server/agents/index.ts.');

export function findAgent(name: string): DeepAgent | undefined {
  return byName.get(name);
}
