// What the web app shows about each agent: plain data, safe to hand to client components
// (never the agent object itself: it holds tools, model settings and instructions).
import { agents, findAgent } from '../agents';
import type { DeepAgent } from '../define';
import { isScriptedMode } from '../models/resolve';

export interface AgentCard {
  name: string;
  description: string;
  /** Served by the built-in scripted model (offline, deterministic). */
  scripted: boolean;
  /** Prompts to start with (the agent's `suggestions`): chips in an empty chat. */
  suggestions: string[];
  /** Its state has a `todos` task list (the planner panel shows it). */
  hasTodos: boolean;
  /** State keys the browser may write. */
  editableKeys: string[];
}

function agentCard(agent: DeepAgent): AgentCard {
  const scripted = isScriptedMode(agent.model);
  return {
    name: agent.name,
    description: agent.description,
    scripted,
    suggestions: agent.suggestions,
    hasTodos: Array.isArray(agent.initialState.todos),
    editableKeys: Object.keys(agent.editableState),
  };
}

export function agentCards(): AgentCard[] {
  return agents.map(agentCard);
}

export function findAgentCard(name: string): AgentCard | undefined {
  const agent = findAgent(name);
  return agent && agentCard(agent);
}
