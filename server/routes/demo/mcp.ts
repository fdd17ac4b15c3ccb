// POST/GET/DELETE /api/demo/mcp: the demo MCP server (server/agents/mcp-demo-server.ts) over the
// SDK's web-standard Streamable HTTP transport (docs/mcp.md, "The demo server"). Stateful: an
// elicitation's answer comes back on a request of its own, which must reach the call that asked,
// so sessions live in this process (one instance; on a serverless host with many, pin the demo
// or run your MCP server elsewhere). Open to any caller, as the demo tools touch nothing else.
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createDemoMcpServer } from '../../agents/mcp-demo-server';

/** The most sessions kept; the oldest is closed to make room (clients that never said goodbye). */
const MAX_SESSIONS = 200;

const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

export async function handleDemoMcp(request: Request): Promise<Response> {
  const sessionId = request.headers.get('mcp-session-id');
  const known = sessionId ? sessions.get(sessionId) : undefined;
  if (known) return known.handleRequest(request);
  if (sessionId || request.method !== 'POST') {
    return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize a new one.' }, id: null }, { status: 404 });
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
      if (sessions.size > MAX_SESSIONS) void sessions.values().next().value?.close();
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await createDemoMcpServer().connect(transport);
  return transport.handleRequest(request);
}
