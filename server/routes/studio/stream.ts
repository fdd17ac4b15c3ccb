// GET /api/studio/stream: the live feed of the owner's sessions for Studio (docs/studio.md), one
// "session S changed" per change, so the inbox and the open audit trail re-read at once.
// Owner-scoped like the audit trail (studio/sessions.ts).
import { errorResponse } from '../../http/errors';
import { takeStreamSlot } from '../../http/limits';
import { sseResponse } from '../../http/sse';
import { resolveCaller } from '../../identity/owner';
import { ownerChanges } from '../../web/studio-stream';
import { seesOthersApprovals } from '../../runtime';

/** How long one feed response lasts; the browser's EventSource reopens it a second later. */
const FEED_MS = 240_000;

export async function handleStudioFeed(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { member: true });
    const slot = takeStreamSlot(caller.ownerId); // 429 when the owner has the most streams open (docs/security.md)
    return sseResponse(
      ownerChanges(caller.ownerId, { signal: request.signal, maxMs: FEED_MS, keyHolder: seesOthersApprovals(caller.credential) }),
      (change) => `event: changed\ndata: ${JSON.stringify(change)}\n\n`,
      { retryMs: 1000, slot },
    );
  } catch (error) {
    return errorResponse(error, 'Studio feed request');
  }
}
