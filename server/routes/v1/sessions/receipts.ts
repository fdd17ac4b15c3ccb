// GET /api/v1/sessions/{key}/receipts: the session's signed approval receipts, for its owner
// (docs/approvals.md, "Signed receipts"): `{receipts: [jws, …]}`, oldest first. Verify them with
// /.well-known/jwks.json or `npx stackbone receipt verify`.
import { errorResponse } from '../../../http/errors';
import { resolveOwner } from '../../../identity/owner';
import { ownedSession, scopedSessionId, sessionReceipts } from '../../../runtime';
import { getStore } from '../../../store';
import { jsonResponse } from '../../../http/small-answers';

export async function handleSessionReceipts(request: Request, key: string): Promise<Response> {
  try {
    const ownerId = await resolveOwner(request);
    const store = getStore();
    const session = await ownedSession(store, { sessionId: scopedSessionId(ownerId, key), ownerId });
    return jsonResponse({ receipts: await sessionReceipts(store, session.id) }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'receipts request');
  }
}
