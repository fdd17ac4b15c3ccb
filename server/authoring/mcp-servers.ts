// The MCP servers an agent uses tools of (docs/mcp.md, "MCP in"): how they are declared, and the
// check of their names and transports when the agent is defined.

/**
 * An MCP server whose tools the agent uses as its own, named `<server>_<tool>` (docs/mcp.md,
 * "MCP in"): a Streamable HTTP endpoint, or a local command spoken to over stdio (for
 * development: it is started for each call).
 */
export type McpServerSpec = McpHttpServer | McpStdioServer;

interface McpServerBase {
  /** The prefix of its tools' names: lower-case letters, digits and "-" (no "_": it separates the tool's own name). */
  name: string;
}

export interface McpHttpServer extends McpServerBase {
  /** The endpoint, or a function giving it when the server is first reached (e.g. from this app's own origin). */
  url: string | URL | (() => string | URL);
  /** Sent with every request (an API key); a function is asked each time a connection opens. */
  headers?: Record<string, string> | (() => Record<string, string>);
}

export interface McpStdioServer extends McpServerBase {
  command: string;
  args?: string[];
  /** The command's environment (its default: a few safe variables, as the MCP SDK chooses). */
  env?: Record<string, string>;
}

const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

export function checkMcpServers(agent: string, servers: McpServerSpec[] | undefined): McpServerSpec[] {
  if (servers === undefined) return [];
  if (!Array.isArray(servers)) throw new Error(`Agent "${agent}": mcpServers is a list of {name, url} or {name, command}.`);
  const names = new Set<string>();
  for (const server of servers) {
    const name: unknown = server?.name;
    if (typeof name !== 'string' || !MCP_SERVER_NAME.test(name)) {
      throw new Error(
        `Agent "${agent}": the MCP server name ${JSON.stringify(name)} must be 1 to 32 lower-case letters, digits or "-" (its tools are named "<server>_<tool>").`,
      );
    }
    if (names.has(name)) throw new Error(`Agent "${agent}": two MCP servers are named "${name}".`);
    names.add(name);
    const byUrl = 'url' in server && server.url !== undefined;
    const byCommand = 'command' in server && server.command !== undefined;
    if (byUrl === byCommand) throw new Error(`Agent "${agent}": MCP server "${name}" needs either a url (Streamable HTTP) or a command (stdio).`);
  }
  return servers;
}

/** `docs_search` or `docs_*` for an MCP server named `docs`. */
export function namesMcpTool(servers: McpServerSpec[], toolName: string): boolean {
  return servers.some((server) => toolName.startsWith(`${server.name}_`) && toolName.length > server.name.length + 1);
}
