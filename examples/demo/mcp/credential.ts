// Who may call the demo MCP server this app serves (docs/mcp.md, "The demo server"; docs/security.md):
// whoever may call /api/mcp — an API key in a header on a keyed server, anyone on loopback in open
// dev mode — and the MCP demo agent itself, which presents a credential of its own so that no key
// of anyone's sits in its code. That credential is derived from STACKBONE_SECRET under a label of
// its own (so every instance of a deployment derives the same one, and no cookie or link signed
// with the secret is it); without a secret (open dev mode) it is random, once per process.
import { createHmac, randomBytes } from 'node:crypto';
import { HttpError } from '../../../server/http/errors';
import { resolveCaller } from '../../../server/identity/owner';
import { sameSecret } from '../../../server/identity/same-secret';
import { setting } from '../../../server/config';

/** The header the demo agent's connection carries its credential in. */
export const DEMO_MCP_CREDENTIAL_HEADER = 'x-stackbone-demo-mcp';

/** Who holds the demo agent's sessions: no owner id is this (they are `key:…`, `browser:…` or the local owner). */
export const DEMO_AGENT_HOLDER = 'mcp-demo-agent';

// On globalThis: the agent runs in the AG-UI routes' bundle, the demo server in its own.
const held = globalThis as typeof globalThis & { __stackboneDemoMcpCredential?: string };

/** The demo agent's credential on this server. */
export function demoMcpCredential(): string {
  const secret = setting('STACKBONE_SECRET');
  if (secret) return deriveDemoMcpCredential(secret);
  return (held.__stackboneDemoMcpCredential ??= randomBytes(32).toString('base64url'));
}

/** The credential a server with this STACKBONE_SECRET gives the demo agent (the tests present it as the agent would). */
export function deriveDemoMcpCredential(secret: string): string {
  return createHmac('sha256', secret).update('stackbone: the MCP demo agent on the demo MCP server').digest('base64url');
}

/**
 * Who a request to the demo server is for: the demo agent, when it presents its credential; else
 * the caller /api/mcp would take (resolveCaller: a key in a header, no cookie). 401 otherwise.
 */
export async function demoMcpHolder(request: Request): Promise<string> {
  const presented = request.headers.get(DEMO_MCP_CREDENTIAL_HEADER);
  if (presented === null) return (await resolveCaller(request)).ownerId;
  if (!sameSecret(presented, demoMcpCredential())) throw new HttpError('unauthorized', 'The demo MCP credential is not valid.');
  return DEMO_AGENT_HOLDER;
}
