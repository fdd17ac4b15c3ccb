// GET /api/studio/sessions/{id}: a session's audit trail for Studio (docs/studio.md), as JSON or,
// with `?download=1`, as a file. Owner-scoped like every programmatic surface: an API key (in a
// header, or the app's cookie a key was exchanged for) in keyed mode, the local owner in open
// dev mode. Decisions go through /api/hitl.
import { errorResponse, HttpError } from '../../http/errors';
import { resolveOwner } from '../../identity/owner';
import { loadAuditTrail } from '../../web/audit-trail';
import { jsonResponse } from '../../http/small-answers';

export async function handleAuditTrail(request: Request, sessionId: string): Promise<Response> {
  try {
    const trail = await loadAuditTrail(await resolveOwner(request, { member: true }), sessionId);
    if (!trail) throw new HttpError('not_found', `No session "${sessionId}".`, { what: 'session' });
    const download = new URL(request.url).searchParams.get('download') === '1';
    return jsonResponse(trail, {
      headers: {
        'Cache-Control': 'no-store',
        ...(download ? { 'Content-Disposition': `attachment; filename="stackbone-audit-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json"` } : {}),
      },
    });
  } catch (error) {
    return errorResponse(error, 'audit trail request');
  }
}
