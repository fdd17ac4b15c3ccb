// GET/POST/DELETE /api/mcp: our agents as an MCP server over Streamable HTTP (docs/mcp.md,
// "MCP out"), keyed like the other programmatic APIs (docs/security.md), in both protocol eras on
// one URL, told apart by the SDK's own `isLegacyRequest`:
// - 2026-07-28 (`modern`): no MCP session at all. Each request is served by a fresh server
//   (`createMcpHandler`, legacy refused there); a decision is asked by answering `input_required`
//   with a sealed requestState, so any instance takes the retry — Vercel included.
// - 2025-era (`legacy`): an elicitation is a request from the server during a tool call, and the
//   client answers it with a new POST that only the MCP session which sent it can take, so those
//   sessions are stateful and live in this process (several instances need sticky sessions for
//   it; the decision itself is durable and can always be made in Studio or /api/hitl).
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { readJsonBody } from '../../http/body';
import { errorResponse } from '../../http/errors';
import type { KeepAlive } from '../../http/keep-alive';
import { resolveCaller } from '../../identity/owner';
import type { McpCaller } from './ask';
import { buildMcpServer } from './server';
import { jsonResponse } from '../../http/small-answers';

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

/** What the modern handler's per-request factory is handed (through the SDK's authInfo, which it passes on as given). */
interface Asker {
  caller: McpCaller;
  keepAlive: KeepAlive;
}

// One per process: it keeps no state of its own, and builds a server per request.
const modern = createMcpHandler(
  (ctx) => {
    const { caller, keepAlive } = ctx.authInfo!.extra as unknown as Asker;
    return buildMcpServer(caller, keepAlive, 'modern');
  },
  { legacy: 'reject' },
);

export async function handleMcp(request: Request, keepAlive: KeepAlive): Promise<Response> {
  try {
    const caller = await resolveCaller(request);
    // Read here, not by the transport: the app's limits on a body hold on every API (docs/security.md, "What a request may carry").
    const parsedBody = request.method === 'POST' ? await readJsonBody(request) : undefined;
    const asker: Asker = { caller: { ownerId: caller.ownerId, credential: caller.credential, origin: publicOrigin(request) }, keepAlive };
    // GET (the 2025 standalone stream) and DELETE (ending a 2025 session) exist only in the sessionful era.
    if (request.method === 'POST' && !(await isLegacyRequest(request, parsedBody))) {
      // clientId is whom a requestState is bound to (wire/mcp/request-state.ts).
      const authInfo: AuthInfo = { token: '', clientId: caller.ownerId, scopes: [], extra: asker as unknown as Record<string, unknown> };
      return await modern.fetch(request, { parsedBody, authInfo });
    }
    return await handleLegacy(request, parsedBody, asker);
  } catch (error) {
    return errorResponse(error, 'MCP request');
  }
}

/** A 2025-era request: on the MCP session it names, or an initialize that opens one. */
async function handleLegacy(request: Request, parsedBody: unknown, { caller, keepAlive }: Asker): Promise<Response> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId) {
    const session = sessions.get(sessionId);
    // Another owner's session is as unknown as a closed one (docs/security.md).
    if (!session || session.ownerId !== caller.ownerId) return jsonRpcError(404, -32001, 'Session not found');
    session.seenAt = Date.now();
    return await session.transport.handleRequest(request, request.method === 'POST' ? { parsedBody } : undefined);
  }
  if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  return await openSession(request, parsedBody, caller, keepAlive);
}

/** An initialize request opens an MCP session for its caller; the transport refuses any other request without a session. */
async function openSession(request: Request, parsedBody: unknown, caller: McpCaller, keepAlive: KeepAlive): Promise<Response> {
  const { ownerId } = caller;
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
  const server = buildMcpServer(caller, keepAlive, 'legacy');
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
  return jsonResponse({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
