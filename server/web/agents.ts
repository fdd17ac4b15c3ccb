// What the web app shows about each agent: plain data, safe to hand to client components
// (never the agent object itself: it holds tools, model settings and instructions).
import type { Tool } from 'ai';
import { agents, findAgent } from '../agents';
import type { DeepAgent } from '../authoring';
import type { JsonObject } from '../store/messages';
import { modelIdOf, type ModelOption } from '../authoring/model-list';
import { isScriptedMode } from '../models/resolve';
import { readableName } from '../authoring/readable-name';
import { agentTools, inputJsonSchema, loadMcpTools } from '../runtime';

/** A tool as a person meets it: its title, what it does, and the arguments it takes (`AgentCard['tools'][name]`). */
interface AgentToolCard {
  /** The tool's `title`, else its name in words ("sendInvoice" → "Send invoice"). */
  title: string;
  description?: string;
  /**
   * Its input as JSON Schema, as an approval's `editedArgs` gives it (docs/hitl.md, "The
   * interrupt"): the fields' `title`, `description` and `format` (e.g. 'currency', with
   * `currency: 'USD'`) label a form and format a value.
   */
  inputSchema: JsonObject;
}

export interface AgentCard {
  name: string;
  /** What a person calls it ("Support"). */
  displayName: string;
  description: string;
  /** Served by the built-in scripted model (offline, deterministic). */
  scripted: boolean;
  /**
   * The models a person may choose from (docs/models.md, "Choosing a model"); more than one: the
   * chat shows a picker. `offline`: no key serves it here, so the scripted model answers in its place.
   */
  models: (ModelOption & { offline: boolean })[];
  /** The model a new thread runs on. */
  defaultModel: string;
  /** Prompts to start with (the agent's `suggestions`): chips in an empty chat. */
  suggestions: string[];
  /** Its state has a `todos` task list (the planner panel shows it). */
  hasTodos: boolean;
  /** State keys the browser may write. */
  editableKeys: string[];
  /** The tools it runs on the server, by name, its built-ins (write_todos, delegate_task) and its MCP servers' (docs/mcp.md) included. */
  tools: Record<string, AgentToolCard>;
}

function agentCard(agent: DeepAgent): AgentCard {
  const scripted = isScriptedMode(agent.model);
  return {
    name: agent.name,
    displayName: agent.displayName,
    description: agent.description,
    scripted,
    models: agent.models.map(({ id, label }) => ({ id, label, offline: isScriptedMode(id) })),
    defaultModel: modelIdOf(agent.model),
    suggestions: agent.suggestions,
    hasTodos: Array.isArray(agent.initialState.todos),
    editableKeys: Object.keys(agent.editableState),
    tools: Object.fromEntries(Object.entries(agentTools(agent)).map(([name, definition]) => [name, toolCard(name, definition)])),
  };
}

function toolCard(name: string, definition: Tool): AgentToolCard {
  return {
    title: definition.title?.trim() || readableName(name),
    // A description worked out per call (a function) has no one text to show.
    ...(typeof definition.description === 'string' && definition.description ? { description: definition.description } : {}),
    inputSchema: inputJsonSchema(definition),
  };
}

/** Every agent's card, its MCP servers listed first (a server that cannot be reached lists no tools; docs/mcp.md). */
export async function agentCards(): Promise<AgentCard[]> {
  await Promise.all(agents.map((agent) => loadMcpTools(agent)));
  return agents.map(agentCard);
}

export async function findAgentCard(name: string): Promise<AgentCard | undefined> {
  const agent = findAgent(name);
  if (agent) await loadMcpTools(agent);
  return agent && agentCard(agent);
}
