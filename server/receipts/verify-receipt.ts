// Verifying a receipt (docs/approvals.md, "Signed receipts"): the signature against a key set
// (ours, a server's /.well-known/jwks.json, or a saved copy), the type, and — given the arguments
// that run or ran — their digest. Pure of the server: the CLI verifies offline with the same code.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { argsDigest, type ReceiptClaims } from './receipt-claims';
import { RECEIPT_TYPE } from './sign-receipt';

export type ReceiptCheck = { ok: true; claims: ReceiptClaims; kid: string } | { ok: false; problem: string; claims?: ReceiptClaims };

/** Reads a receipt's claims without checking them: what a refusal shows of what it refused. */
function unverifiedClaims(receipt: string): ReceiptClaims | undefined {
  try {
    return JSON.parse(Buffer.from(receipt.split('.')[1] ?? '', 'base64url').toString('utf8')) as ReceiptClaims;
  } catch {
    return undefined;
  }
}

export async function verifyReceipt(receipt: string, keys: JSONWebKeySet, expect: { args?: unknown } = {}): Promise<ReceiptCheck> {
  const token = receipt.trim();
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    kid = header.kid;
    if (header.typ !== RECEIPT_TYPE) return { ok: false, problem: `not a receipt (typ ${JSON.stringify(header.typ)}, not ${RECEIPT_TYPE})` };
    const { payload } = await compactVerify(token, createLocalJWKSet(keys), { algorithms: ['EdDSA'] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as ReceiptClaims;
    if (expect.args !== undefined && argsDigest(expect.args) !== claims.argsDigest) {
      return { ok: false, problem: 'the arguments given are not the ones the receipt approved (their digest differs)', claims };
    }
    return { ok: true, claims, kid: kid! };
  } catch (error) {
    const claims = unverifiedClaims(token);
    const code = (error as { code?: string }).code;
    const problem =
      code === 'ERR_JWKS_NO_MATCHING_KEY'
        ? `signed by a key the key set does not list (kid ${kid ?? 'none'})`
        : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
          ? 'the signature does not match: the receipt was changed after it was signed'
          : `unreadable: ${(error as Error).message}`;
    return { ok: false, problem, ...(claims ? { claims } : {}) };
  }
}
