// What the web app shows about each agent: plain data, safe to hand to client components
// (never the agent object itself: it holds tools, model settings and instructions).
import { agents, findAgent } from '../agents';
import type { DeepAgent } from '../define';
import { isScriptedMode } from '../models/resolve';
import { PHRASES } from '../models/scripted-phrases';
import { agentTools } from '../runtime';

export interface AgentCard {
  name: string;
  description: string;
  /** Served by the built-in scripted model (offline, deterministic). */
  scripted: boolean;
  /** Things to type that the scripted model acts on for this agent (empty otherwise). */
  examples: string[];
  /** Its state has a `todos` task list (the planner panel shows it). */
  hasTodos: boolean;
  /** State keys the browser may write. */
  editableKeys: string[];
}

function agentCard(agent: DeepAgent): AgentCard {
  const scripted = isScriptedMode(agent.model);
  const tools = agentTools(agent);
  return {
    name: agent.name,
    description: agent.description,
    scripted,
    examples: scripted ? PHRASES.filter((phrase) => phrase.tools.some((name) => name in tools)).map((phrase) => phrase.example) : [],
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
