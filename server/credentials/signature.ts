// Every HMAC the server makes under its secrets (docs/security.md, "Signed tokens"): the signed
// input starts with a label naming what the token is for, so a token signed for one purpose
// never verifies as another — a mailed approval link is no identity cookie, whatever its bytes.
// One file for every signer (server/credentials/link-token.ts; server/auth/legacy-browser-cookie.ts reads
// the identity cookies it signed before), pure and
// free of next/*, so proxy.ts and the runtime read it too. A new kind of token gets a purpose here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { setting } from '../config';

/** What a signature is for. */
export type SignaturePurpose = 'link' | 'identity' | 'owner-id' | 'wake';

/**
 * The label each purpose's signed input starts with. Each is `stackbone <purpose> v1\n`, with
 * the purpose free of spaces and newlines, so no label is the start of another and no payload
 * can make one purpose's input equal another's.
 */
const LABELS: Record<SignaturePurpose, string> = {
  link: 'stackbone link v1\n',
  identity: 'stackbone identity v1\n',
  // Not a token: an owner id as it leaves the server, re-keyed (server/credentials/open-dev-mode.ts, publicOwnerId).
  'owner-id': 'stackbone owner-id v1\n',
  // A queue message that wakes due work (server/wake/wake-message.ts): only this server's sends verify.
  wake: 'stackbone wake v1\n',
};

/**
 * Until when a signature made before purpose labels (the HMAC of the bare payload, as the
 * server made them up to this change) still verifies: the migration window of docs/security.md,
 * "Signed tokens". Each signer accepts one only for a payload of its own kind, and re-issues it
 * labelled where it can. After this date every unlabelled signature is refused.
 */
export const UNLABELLED_SIGNATURES_UNTIL = new Date('2027-06-01T00:00:00Z');

function hmac(input: string, secret: string): string {
  return createHmac('sha256', secret).update(input).digest('base64url');
}

/** A payload's signature for one purpose under one secret (base64url of HMAC-SHA256). */
export function sign(purpose: SignaturePurpose, payload: string, secret: string): string {
  return hmac(LABELS[purpose] + payload, secret);
}

/** Two signatures as sent, compared in constant time (a length mismatch tells nothing secret). */
function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Which of the secrets signed this payload for this purpose: its index (0 is the current
 * secret, a higher one a previous secret during a rotation), or -1 when none did.
 */
export function signedWith(purpose: SignaturePurpose, payload: string, given: string, secrets: readonly string[]): number {
  return secrets.findIndex((secret) => sameSignature(sign(purpose, payload, secret), given));
}

/**
 * Which of the secrets signed this payload the old way, without a purpose label: its index, or
 * -1 — always -1 from UNLABELLED_SIGNATURES_UNTIL on. Only for the migration: the caller must
 * check that the payload is one of its own kind, since an unlabelled signature says nothing of it.
 */
export function signedWithoutLabel(payload: string, given: string, secrets: readonly string[], now: Date = new Date()): number {
  if (now.getTime() >= UNLABELLED_SIGNATURES_UNTIL.getTime()) return -1;
  return secrets.findIndex((secret) => sameSignature(hmac(payload, secret), given));
}

/** STACKBONE_SECRET_PREVIOUS: the secrets a rotation moved away from, comma-separated, which still verify. */
export function previousSecrets(): string[] {
  return (setting('STACKBONE_SECRET_PREVIOUS') ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter(Boolean);
}
