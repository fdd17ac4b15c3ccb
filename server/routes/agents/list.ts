// GET /api/agents: the agents as JSON (docs/studio.md), for the TanStack Query list that
// refreshes them after the first paint.
import { errorResponse } from '../../http/errors';
import { checkOpenDevHost } from '../../identity/open-access';
import { agentCards } from '../../web/agents';
import { jsonResponse } from '../../http/small-answers';

/** The agents, to anyone but a request that open dev mode does not serve (docs/security.md, "Modes"). */
export async function handleAgentList(request: Request): Promise<Response> {
  try {
    checkOpenDevHost(request);
    return jsonResponse({ agents: await agentCards() });
  } catch (error) {
    return errorResponse(error, 'agent list');
  }
}
