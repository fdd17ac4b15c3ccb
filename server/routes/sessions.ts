// GET /api/sessions: the owner's recent sessions as JSON (docs/studio.md), for the TanStack Query
// list that refreshes them after the first paint.
import { errorResponse } from '../http/errors';
import { resolveOwner } from '../identity/owner';
import { recentSessions } from '../web/sessions';
import { jsonResponse } from '../http/small-answers';

const MAX_LIMIT = 100;

export async function handleSessionList(request: Request): Promise<Response> {
  try {
    const ownerId = await resolveOwner(request, { browser: true });
    const params = new URL(request.url).searchParams;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number(params.get('limit')) || 20));
    const sessions = await recentSessions(ownerId, { limit, agent: params.get('agent') ?? undefined });
    return jsonResponse({ sessions }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'session list');
  }
}
