// The tools of an agent's MCP servers, as AI SDK tools named `<server>_<tool>` (docs/mcp.md,
// "MCP in"). Each server is listed once per process and again (in the background) after LISTING_TTL_MS; a server that
// cannot be listed keeps the tools it last listed (their calls then fail with a clear error), or
// has none, and the agent's other tools work as ever. The runtime lists before it needs them —
// at a run's start, before a decision is checked, for the agent directory — so that everything
// reading an agent's tools (policies, interrupts, the model's tool set) reads them at once.
import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import type { DeepAgent, McpServerSpec } from '../../authoring';
import type { JsonObject } from '../../store/messages';
import { zodFromJsonSchema } from '../common';
import { logFailure } from '../errors';
import { handlerContext } from './handler-context';
import { callMcpTool } from './mcp-call';
import { describeMcpServer, MCP_CONNECT_TIMEOUT_MS, openMcpConnection } from './mcp-connection';

/** How long a listing stands before the server is asked again. */
const LISTING_TTL_MS = 5 * 60_000;
/** How soon a server that could not be listed is tried again. */
const RETRY_AFTER_MS = 10_000;
/** A tool name as the model APIs take one. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

interface Listing {
  tools: ToolSet;
  /** The server answered a listing once: what it said stands while it is asked again. */
  listed: boolean;
  /** When to ask the server again. */
  renewAt: number;
  renewing?: Promise<void>;
}

const listings = new WeakMap<McpServerSpec, Listing>();

/** The MCP server a tool name of the agent falls under (`docs_search` → `docs`), listed or not. */
export function mcpServerOf(agent: DeepAgent, toolName: string): McpServerSpec | undefined {
  return agent.mcpServers.find((server) => toolName.startsWith(`${server.name}_`) && toolName.length > server.name.length + 1);
}

/** The agent's MCP tools as last listed in this process, by full name (read synchronously by agentTools). */
export function mcpTools(agent: DeepAgent): ToolSet {
  return Object.assign({}, ...agent.mcpServers.map((server) => listings.get(server)?.tools ?? {})) as ToolSet;
}

/**
 * Lists the MCP servers of the agent and its subagents that are due; never throws. A server
 * that cannot be reached is logged and keeps what it last listed (docs/mcp.md, "Listing and unreachable servers").
 */
export async function loadMcpTools(agent: DeepAgent, now = Date.now()): Promise<void> {
  const servers = new Set<McpServerSpec>();
  const visit = (each: DeepAgent) => {
    each.mcpServers.forEach((server) => servers.add(server));
    each.subagents.forEach(visit);
  };
  visit(agent);
  await Promise.all([...servers].map((server) => renew(server, now)));
}

/**
 * Asks the server again when its listing is due. Only a server never listed is waited for: a
 * listing it gave stands while it is renewed, so a page or a run never waits on a slow or
 * unreachable server it already knows the tools of.
 */
function renew(server: McpServerSpec, now: number): Promise<void> {
  const listing = listings.get(server) ?? { tools: {}, listed: false, renewAt: 0 };
  listings.set(server, listing);
  if (!listing.renewing && now >= listing.renewAt) listing.renewing = relist(server, listing);
  return listing.listed || !listing.renewing ? Promise.resolve() : listing.renewing;
}

function relist(server: McpServerSpec, listing: Listing): Promise<void> {
  return listTools(server)
    .then((tools) => {
      Object.assign(listing, { tools, listed: true, renewAt: Date.now() + LISTING_TTL_MS });
    })
    .catch((error: unknown) => {
      logFailure(
        `${describeMcpServer(server)} could not be listed; its tools are ${Object.keys(listing.tools).length ? 'as last listed' : 'not offered'}`,
        error,
      );
      listing.renewAt = Date.now() + RETRY_AFTER_MS;
    })
    .finally(() => {
      listing.renewing = undefined;
    });
}

async function listTools(server: McpServerSpec): Promise<ToolSet> {
  const connection = await openMcpConnection(server);
  try {
    const tools: ToolSet = {};
    let cursor: string | undefined;
    do {
      const page = await connection.client.listTools(cursor ? { cursor } : {}, { timeout: MCP_CONNECT_TIMEOUT_MS });
      for (const listed of page.tools) {
        const name = `${server.name}_${listed.name}`;
        if (!TOOL_NAME.test(name)) {
          console.warn(`[stackbone] ${describeMcpServer(server)}: its tool "${listed.name}" is left out: "${name}" is not a tool name the model APIs take.`);
          continue;
        }
        tools[name] = mcpTool(server, listed.name, {
          title: listed.title ?? listed.annotations?.title,
          description: listed.description,
          inputSchema: listed.inputSchema as JsonObject,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await connection.close();
  }
}

function mcpTool(server: McpServerSpec, name: string, listed: { title?: string; description?: string; inputSchema: JsonObject }): Tool {
  return tool({
    ...(listed.title ? { title: listed.title } : {}),
    description: listed.description ?? `The tool "${name}" of the MCP server "${server.name}".`,
    inputSchema: jsonSchema(listed.inputSchema, { validate: validator(listed.inputSchema) }),
    execute: (input: unknown, { abortSignal }: { abortSignal?: AbortSignal }) =>
      callMcpTool({ server, tool: name, input, idempotencyKey: handlerContext().idempotencyKey, signal: abortSignal ?? handlerContext().signal }),
  });
}

/** Checks an input against the server's schema (an edited one too); a schema zod cannot read leaves the checking to the server. */
function validator(schema: JsonObject): ((value: unknown) => { success: true; value: unknown } | { success: false; error: Error }) | undefined {
  let parser: ReturnType<typeof zodFromJsonSchema>;
  try {
    parser = zodFromJsonSchema(schema);
  } catch {
    return undefined;
  }
  return (value) => {
    const parsed = parser.safeParse(value);
    return parsed.success ? { success: true, value: parsed.data } : { success: false, error: parsed.error };
  };
}
