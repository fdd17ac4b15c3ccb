// GET /.well-known/jwks.json: the public keys approval receipts are signed with (docs/approvals.md,
// "Signed receipts") — the signing key's first, then the retired ones a rotation keeps listed.
import { receiptKeys } from '../receipts';
import { jsonResponse } from '../http/small-answers';

export async function handleJwks(): Promise<Response> {
  const { published } = await receiptKeys();
  return jsonResponse({ keys: published }, { headers: { 'cache-control': 'public, max-age=300' } });
}
