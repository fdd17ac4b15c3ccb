// One connection to an MCP server an agent uses (docs/mcp.md, "MCP in"): the official SDK's
// Client over Streamable HTTP, or over stdio for a local command. A listing opens one and closes
// it; each tool call opens its own, so an elicitation the server sends belongs to that call alone.
// Over HTTP the client negotiates the protocol era (`server/discover`, else the 2025 handshake):
// a 2026-07-28 server asks by answering `input_required`, which the call handles itself
// (mcp-call.ts), a 2025-era one by pushing `elicitation/create` to `onElicit`. A stdio server is
// spoken to in the 2025 era: the probe would start a second process for every call.
import { Client, StreamableHTTPClientTransport, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServerSpec } from '../../authoring';

/** How long opening a connection or listing tools may take before the server counts as unreachable. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;

type ElicitationHandler = (request: ElicitRequest['params']) => Promise<ElicitResult>;

export interface McpConnection {
  client: Client;
  close: () => Promise<void>;
}

/** Opens a connection; with `onElicit` the client offers elicitation (form and URL mode) and answers through it. */
export async function openMcpConnection(server: McpServerSpec, onElicit?: ElicitationHandler): Promise<McpConnection> {
  const client = new Client(
    { name: 'stackbone', version: '1.0.0' },
    {
      ...(onElicit ? { capabilities: { elicitation: { form: {}, url: {} } } } : {}),
      versionNegotiation: { mode: 'url' in server ? 'auto' : 'legacy' },
      // A 2026-07-28 server's questions are answered by the call from the person's recorded answers (mcp-call.ts), not on the spot.
      inputRequired: { autoFulfill: false },
    },
  );
  if (onElicit) client.setRequestHandler('elicitation/create', (request) => onElicit(request.params));
  const transport =
    'url' in server
      ? new StreamableHTTPClientTransport(new URL(typeof server.url === 'function' ? server.url() : server.url), {
          requestInit: { headers: typeof server.headers === 'function' ? server.headers() : (server.headers ?? {}) },
        })
      : new StdioClientTransport({ command: server.command, args: server.args ?? [], ...(server.env ? { env: server.env } : {}), stderr: 'inherit' });
  await client.connect(transport, { timeout: MCP_CONNECT_TIMEOUT_MS });
  return {
    client,
    close: async () => {
      // A stateful HTTP server is told the session is over; a stdio server's process ends.
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

/** The server as a log line names it: its name and where it is, without headers or query (they may hold keys). */
export function describeMcpServer(server: McpServerSpec): string {
  if ('command' in server) return `MCP server "${server.name}" (${server.command})`;
  try {
    const url = new URL(typeof server.url === 'function' ? server.url() : server.url);
    return `MCP server "${server.name}" (${url.origin}${url.pathname})`;
  } catch {
    return `MCP server "${server.name}"`;
  }
}
