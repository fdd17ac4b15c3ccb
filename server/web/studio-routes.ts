// Studio's HTTP reads (docs/studio.md): a session's audit trail (JSON; `?download=1` as a file)
// and the live feed of the owner's sessions. Owner-scoped like every programmatic surface: an
// API key (in a header, or the app's cookie a key was exchanged for) in keyed mode, the local
// owner in open dev mode. Decisions go through /api/hitl.
import { errorResponse, HttpError } from '../http/errors';
import { resolveCaller, resolveOwner } from '../http/owner';
import { takeStreamSlot } from '../http/limits';
import { sseResponse } from '../http/sse';
import { loadAuditTrail } from './audit-trail';
import { ownerChanges } from './studio-stream';

/** How long one feed response lasts; the browser's EventSource reopens it a second later. */
const FEED_MS = 240_000;

export async function handleAuditTrail(request: Request, sessionId: string): Promise<Response> {
  try {
    const trail = await loadAuditTrail(resolveOwner(request, { keyCookie: true }), sessionId);
    if (!trail) throw new HttpError('not_found', `No session "${sessionId}".`, { what: 'session' });
    const download = new URL(request.url).searchParams.get('download') === '1';
    return Response.json(trail, {
      headers: {
        'Cache-Control': 'no-store',
        ...(download ? { 'Content-Disposition': `attachment; filename="stackbone-audit-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json"` } : {}),
      },
    });
  } catch (error) {
    return errorResponse(error, 'audit trail request');
  }
}

export function handleStudioFeed(request: Request): Response {
  try {
    const caller = resolveCaller(request, { keyCookie: true });
    const slot = takeStreamSlot(caller.ownerId); // 429 when the owner has the most streams open (docs/security.md)
    return sseResponse(ownerChanges(caller.ownerId, { signal: request.signal, maxMs: FEED_MS, keyHolder: caller.credential === 'key' }), (change) => `event: changed\ndata: ${JSON.stringify(change)}\n\n`, { retryMs: 1000, slot });
  } catch (error) {
    return errorResponse(error, 'Studio feed request');
  }
}
