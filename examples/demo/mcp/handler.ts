// POST/GET/DELETE /api/demo/mcp: the demo MCP server (server.ts) over the
// SDK's web-standard Streamable HTTP transport (docs/mcp.md, "The demo server"). Keyed like
// /api/mcp, plus the MCP demo agent's own credential (credential.ts).
// Stateful: an elicitation's answer comes back on a request of its own, which must reach the call
// that asked, so sessions live in this process (sessions.ts; one instance;
// on a serverless host with many, pin the demo or run your MCP server elsewhere).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { demoMcpHolder } from './credential';
import { createDemoMcpServer } from './server';
import { findDemoSession, forgetDemoSession, keepDemoSession } from './sessions';
import { readJsonBody } from '../../../server/http/body';
import { errorResponse } from '../../../server/http/errors';

export async function handleDemoMcp(request: Request): Promise<Response> {
  try {
    const holder = await demoMcpHolder(request);
    // Read here, not by the transport: the app's limits on a body hold on every API (docs/security.md, "What a request may carry").
    const body = request.method === 'POST' ? { parsedBody: await readJsonBody(request) } : undefined;
    const sessionId = request.headers.get('mcp-session-id');
    const known = sessionId ? findDemoSession(sessionId, holder) : undefined;
    if (known) return await known.handleRequest(request, body);
    if (sessionId || request.method !== 'POST') {
      return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize a new one.' }, id: null }, { status: 404 });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => keepDemoSession(id, transport, holder),
      onsessionclosed: (id) => forgetDemoSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) forgetDemoSession(transport.sessionId);
    };
    const server = createDemoMcpServer();
    await server.connect(transport);
    const response = await transport.handleRequest(request, body);
    // A request that opened no session (not an initialize) leaves nothing behind.
    if (!transport.sessionId) await server.close();
    return response;
  } catch (error) {
    return errorResponse(error, 'demo MCP request');
  }
}
