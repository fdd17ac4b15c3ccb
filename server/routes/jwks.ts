// GET /.well-known/jwks.json: the public keys approval receipts are signed with (docs/approvals.md,
// "Signed receipts") — the signing key's first, then the retired ones a rotation keeps listed.
import { receiptKeys } from '../receipts';

export async function handleJwks(): Promise<Response> {
  const { published } = await receiptKeys();
  return Response.json({ keys: published }, { headers: { 'cache-control': 'public, max-age=300' } });
}
