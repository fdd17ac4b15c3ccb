// The demo MCP server's sessions (docs/mcp.md, "The demo server"), kept in this process: an
// elicitation's answer arrives on a request of its own that must reach the call that asked. Each
// session answers only whoever opened it, and they are kept in two pools with a cap each — the
// MCP demo agent's own connections, and every other caller's — so that opening sessions by the
// hundred closes only the opener's kind, never the agent's in the middle of a question.
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { DEMO_AGENT_HOLDER } from './credential';

interface DemoSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** DEMO_AGENT_HOLDER, or the owner id of the caller that opened it. */
  holder: string;
  seenAt: number;
}

/**
 * The most sessions of each pool; past it the least recently used of that pool is closed. The
 * agent opens one per listing and per tool call and closes it after, so its pool holds the calls
 * in flight; the others' pool is for people trying the server with an MCP client.
 */
const DEMO_SESSION_CAPS = { agent: 200, others: 50 } as const;
/** A session nobody used for this long is closed (a client that never said goodbye). */
const IDLE_MS = 15 * 60_000;

// On globalThis: one registry per process, whichever bundle of the route a request reaches.
const held = globalThis as typeof globalThis & { __stackboneDemoMcpSessions?: Map<string, DemoSession> };
const sessions = (held.__stackboneDemoMcpSessions ??= new Map<string, DemoSession>());

const poolOf = (holder: string) => (holder === DEMO_AGENT_HOLDER ? 'agent' : 'others');

/** The session's transport, when `holder` opened it: another's is as unknown as a closed one. */
export function findDemoSession(id: string, holder: string): WebStandardStreamableHTTPServerTransport | undefined {
  const session = sessions.get(id);
  if (!session || session.holder !== holder) return undefined;
  session.seenAt = Date.now();
  return session.transport;
}

/** Keeps a new session, closing the idle ones and, past its pool's cap, the least recently used of that pool. */
export function keepDemoSession(id: string, transport: WebStandardStreamableHTTPServerTransport, holder: string): void {
  const now = Date.now();
  sessions.set(id, { transport, holder, seenAt: now });
  const pool = poolOf(holder);
  const peers = [...sessions].filter(([, session]) => poolOf(session.holder) === pool).sort(([, a], [, b]) => a.seenAt - b.seenAt);
  let over = peers.length - DEMO_SESSION_CAPS[pool];
  for (const [peerId, session] of peers) {
    if (peerId === id || (over <= 0 && now - session.seenAt < IDLE_MS)) continue;
    over--;
    sessions.delete(peerId);
    void session.transport.close();
  }
}

export function forgetDemoSession(id: string): void {
  sessions.delete(id);
}
