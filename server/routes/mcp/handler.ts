// GET/POST/DELETE /api/mcp: our agents as an MCP server over Streamable HTTP (docs/mcp.md,
// "MCP out"), keyed like the other programmatic APIs (docs/security.md). An elicitation is a
// request from the server during a tool call, and the client answers it with a new POST; only
// the MCP session that sent it can take the answer, so MCP sessions are stateful and live in
// this process (docs/mcp.md, "Limits": several instances need sticky sessions for elicitation;
// the decision itself is durable and can always be made in Studio or /api/hitl).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { readJsonBody } from '../../http/body';
import { errorResponse } from '../../http/errors';
import type { KeepAlive } from '../../http/keep-alive';
import { resolveCaller, type Caller } from '../../identity/owner';
import { buildMcpServer } from './server';

interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The owner that opened it: every request on it must be that owner's. */
  ownerId: string;
  seenAt: number;
}

/** An MCP session nobody used for this long is closed (its client starts a new one when it comes back). */
const IDLE_MS = 60 * 60_000;
/** At most this many open at once, and this many per owner; the least recently used goes first. */
const MAX_SESSIONS = 1000;
const MAX_SESSIONS_PER_OWNER = 32;

// On globalThis: one registry per process, whichever bundle of the route a request reaches.
const held = globalThis as typeof globalThis & { __stackboneMcpSessions?: Map<string, McpSession> };
const sessions = (held.__stackboneMcpSessions ??= new Map<string, McpSession>());

export async function handleMcp(request: Request, keepAlive: KeepAlive): Promise<Response> {
  try {
    const caller = await resolveCaller(request);
    // Read here, not by the transport: the app's limits on a body hold on every API (docs/security.md, "What a request may carry").
    const body = request.method === 'POST' ? { parsedBody: await readJsonBody(request) } : undefined;
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      // Another owner's session is as unknown as a closed one (docs/security.md).
      if (!session || session.ownerId !== caller.ownerId) return jsonRpcError(404, -32001, 'Session not found');
      session.seenAt = Date.now();
      return await session.transport.handleRequest(request, body);
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return await openSession(request, body!.parsedBody, caller.ownerId, caller.credential, keepAlive);
  } catch (error) {
    return errorResponse(error, 'MCP request');
  }
}

/** An initialize request opens an MCP session for its caller; the transport refuses any other request without a session. */
async function openSession(request: Request, parsedBody: unknown, ownerId: string, credential: Caller['credential'], keepAlive: KeepAlive): Promise<Response> {
  closeIdle(ownerId);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, ownerId, seenAt: Date.now() });
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
    },
  });
  const server = buildMcpServer({ ownerId, credential, origin: publicOrigin(request) }, keepAlive);
  await server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody });
  if (!transport.sessionId) await server.close();
  return response;
}

/** Makes room for one more of `ownerId`'s: closes the idle, then the least recently used over the bounds. */
function closeIdle(ownerId: string): void {
  const now = Date.now();
  const byAge = [...sessions].sort(([, a], [, b]) => a.seenAt - b.seenAt);
  let owned = byAge.filter(([, session]) => session.ownerId === ownerId).length;
  for (const [id, session] of byAge) {
    const mine = session.ownerId === ownerId;
    if (now - session.seenAt < IDLE_MS && sessions.size < MAX_SESSIONS && !(mine && owned >= MAX_SESSIONS_PER_OWNER)) continue;
    sessions.delete(id);
    if (mine) owned--;
    void session.transport.close();
  }
}

/**
 * This server as the client reached it, for the links a result names: the Host it addressed
 * (behind a proxy, the forwarded one), not the address Next listens on. Only the caller reads
 * those links, so a forged header misleads only the forger.
 */
function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? url.host;
  const protocol = request.headers.get('x-forwarded-proto') ?? url.protocol.replace(':', '');
  return `${protocol.split(',')[0]!.trim()}://${host.split(',')[0]!.trim()}`;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
