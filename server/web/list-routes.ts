// The web app's list reads as JSON (docs/studio.md): the owner's recent sessions and
// the agents, for the TanStack Query lists that refresh them after the first paint.
import { errorResponse } from '../http/errors';
import { checkOpenDevHost } from '../identity/open-access';
import { resolveOwner } from '../identity/owner';
import { agentCards } from './agents';
import { recentSessions } from './sessions';

const MAX_LIMIT = 100;

export async function handleSessionList(request: Request): Promise<Response> {
  try {
    const ownerId = resolveOwner(request, { browser: true });
    const params = new URL(request.url).searchParams;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number(params.get('limit')) || 20));
    const sessions = await recentSessions(ownerId, { limit, agent: params.get('agent') ?? undefined });
    return Response.json({ sessions }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'session list');
  }
}

/** The agents, to anyone but a request that open dev mode does not serve (docs/security.md, "Modes"). */
export function handleAgentList(request: Request): Response {
  try {
    checkOpenDevHost(request);
    return Response.json({ agents: agentCards() });
  } catch (error) {
    return errorResponse(error, 'agent list');
  }
}
