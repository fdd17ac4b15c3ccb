// POST/GET/DELETE /api/demo/mcp: the demo MCP server (server.ts) over the SDK's web-standard
// Streamable HTTP (docs/mcp.md, "The demo server"). Keyed like /api/mcp, plus the MCP demo agent's
// own credential (credential.ts). Both protocol eras on one URL, told apart by the SDK's
// `isLegacyRequest`: a 2026-07-28 request is served by a fresh server and keeps nothing (its
// questions come back with the call), so any instance serves it; a 2025-era client keeps an MCP
// session, since an elicitation's answer comes back on a request of its own which must reach the
// call that asked — those sessions live in this process (sessions.ts; one instance).
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { demoMcpHolder } from './credential';
import { createDemoMcpServer } from './server';
import { findDemoSession, forgetDemoSession, keepDemoSession } from './sessions';
import { readJsonBody } from '../../../server/http/body';
import { errorResponse } from '../../../server/http/errors';

// One per process: it builds a server per request and keeps nothing.
const modern = createMcpHandler(() => createDemoMcpServer(), { legacy: 'reject' });

export async function handleDemoMcp(request: Request): Promise<Response> {
  try {
    const holder = await demoMcpHolder(request);
    // Read here, not by the transport: the app's limits on a body hold on every API (docs/security.md, "What a request may carry").
    const parsedBody = request.method === 'POST' ? await readJsonBody(request) : undefined;
    if (request.method === 'POST' && !(await isLegacyRequest(request, parsedBody))) return await modern.fetch(request, { parsedBody });
    const body = request.method === 'POST' ? { parsedBody } : undefined;
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
