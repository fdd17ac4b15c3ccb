// GET /api/sessions/{id}/grants and DELETE /api/sessions/{id}/grants/{grantId}: a session's
// standing approvals, listed and revoked (docs/approvals.md, "Scoped grants").
// Owner-scoped like deciding: an API key in a header, the app's cookie (a key's, or a browser's
// own where web access is open). The rules are the runtime's (turn-control/session-grants.ts).
import { findAgent } from '../agents';
import { errorResponse, HttpError } from '../http/errors';
import { requestActor } from '../identity/decision-actor';
import { resolveCaller } from '../identity/owner';
import { isSessionId, listGrants, revokeGrant, scopedSessionId } from '../runtime';
import { getStore } from '../store';
import { jsonResponse } from '../http/small-answers';

function sessionOf(ownerId: string, sessionKey: string) {
  if (!isSessionId(sessionKey)) throw new HttpError('invalid_session_key', 'A session key is 1 to 256 printable ASCII characters without spaces.');
  return { sessionId: scopedSessionId(ownerId, sessionKey), ownerId };
}

export async function handleGrantList(request: Request, sessionKey: string): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { browser: true, member: true });
    const grants = await listGrants(getStore(), findAgent, sessionOf(caller.ownerId, sessionKey));
    return jsonResponse({ grants }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'grant list');
  }
}

export async function handleGrantRevoke(request: Request, sessionKey: string, grantId: string): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { browser: true, member: true });
    const revoked = await revokeGrant(getStore(), findAgent, sessionOf(caller.ownerId, sessionKey), grantId, requestActor(request, caller, 'hitl'));
    return jsonResponse({ grant: revoked });
  } catch (error) {
    return errorResponse(error, 'grant revocation');
  }
}
