// Signing a receipt: a compact JWS (EdDSA) over its claims, with the signing key's `kid`, so a
// verifier picks the key out of /.well-known/jwks.json (docs/approvals.md, "Signed receipts").
import { CompactSign } from 'jose';
import type { ReceiptClaims } from './receipt-claims';
import { receiptKeys } from './receipt-keys';

/** The JWS `typ` of a receipt: a verifier refuses any other signed thing under our keys. */
export const RECEIPT_TYPE = 'stackbone-receipt+jws';

export async function signReceipt(claims: ReceiptClaims): Promise<string> {
  const { signing } = await receiptKeys();
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'EdDSA', kid: signing.kid, typ: RECEIPT_TYPE })
    .sign(signing.privateKey);
}
