// The demo's agents, in the order the home page lists them (docs/make-it-yours.md): the one list
// the registry (server/agents/index.ts) takes from examples/demo/, on one line of its own.
import type { DeepAgent } from '../../server/agent-kit';
import mcpDemo from './agents/mcp-demo';
import planner from './agents/planner';
import researcher from './agents/researcher';
import support from './agents/support';

export const demoAgents: readonly DeepAgent[] = [support, planner, researcher, mcpDemo];
