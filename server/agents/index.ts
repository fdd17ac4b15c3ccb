// The agent registry. Adding an agent is a file in this folder and a line here.
import type { DeepAgent } from '../agent-kit';
import approvalDesk from './approval-desk';
import ledger from './ledger';
import mcpDemo from './mcp-demo';
import planner from './planner';
import quorumDesk from './quorum-desk';
import researcher from './researcher';
import support from './support';
import supportClaude from './support-claude';
import supportCompact from './support-compact';
import supportFallback from './support-fallback';
import supportNoRefunds from './support-no-refunds';
import supportStrict from './support-strict';

export const agents: readonly DeepAgent[] = [
  support,
  planner,
  researcher,
  mcpDemo,
  // The tests' fixtures (durability, quorum, escalation and grants, real providers, long threads, fallbacks, replay's changed policies); never listed unless asked for.
  ...(process.env.STACKBONE_FIXTURE_AGENTS === '1'
    ? [ledger, quorumDesk, approvalDesk, supportClaude, supportCompact, supportFallback, supportStrict, supportNoRefunds]
    : []),
];

const byName = new Map(agents.map((agent) => [agent.name, agent]));
if (byName.size !== agents.length) throw new Error('Two agents share a name in server/agents/index.ts.');

export function findAgent(name: string): DeepAgent | undefined {
  return byName.get(name);
}
