// The app's signed identity cookie (docs/security.md, "Modes"): with STACKBONE_API_KEYS set, an API
// key entered in the app (/sign-in, "Use a service key instead") is exchanged for an HMAC-signed,
// httpOnly cookie whose id is `key:<hash>`, which then acts as that key. Before guests were
// Better Auth's (docs/users-and-roles.md, "Upgrading"), a public chat (STACKBONE_WEB_ACCESS=open)
// gave each browser such a cookie with a random id of its own; one is still read, so that its
// browser's guest keeps its id and threads (server/auth/guest-account.ts), and never issued.
// Only the app's own surfaces read the cookie; the programmatic wires and the CLI send the key itself.
// The value is `<id>.<issued at, Unix seconds>.<HMAC of both>`, the HMAC labelled as an
// identity's (server/credentials/signature.ts), so no other token the server signs is a cookie: the server
// refuses it once it is older than its max age, whatever the browser kept (a cookie's Max-Age is
// only a hint to it).
import { previousSecrets, sign, signedWith, signedWithoutLabel } from '../credentials/signature';
import { configuredApiKeys, isConfiguredKeyOwner } from './api-keys';
import { browsersWithoutKey } from './web-access';
import { setting } from '../config';

export const IDENTITY_COOKIE = 'stackbone_id';
export const IDENTITY_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;
export const KEY_IDENTITY_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
/** How short STACKBONE_SECRET may be: 32 bytes (`openssl rand -hex 32` makes 64). */
const MIN_SECRET_BYTES = 32;
/** How far in the future an issue time may lie (another instance's clock). */
const CLOCK_SKEW_SECONDS = 300;

/**
 * STACKBONE_SECRET signs new identities. It is required in keyed mode (checkIdentitySecret()
 * stops the server from starting without it): deriving it from the API keys would sign every
 * browser out when a key rotates, and let anyone who holds the key list forge identities.
 */
function signingKey(): string | undefined {
  return setting('STACKBONE_SECRET');
}

/**
 * Secrets a cookie may still be signed with: the current one, then STACKBONE_SECRET_PREVIOUS
 * (comma-separated) during a rotation. A previous secret may be shorter than MIN_SECRET_BYTES:
 * it is the one being rotated away, and refusing it would sign every browser out at once.
 */
function verifyingKeys(): string[] {
  const current = signingKey();
  return current ? [current, ...previousSecrets()] : [];
}

/** Throws the start-up error of a keyed server without STACKBONE_SECRET, or with a short one (start-checks.ts). */
export function checkIdentitySecret(): void {
  if (configuredApiKeys().length === 0) return;
  const key = signingKey();
  if (!key) {
    throw new Error(
      "STACKBONE_API_KEYS is set but STACKBONE_SECRET is not: set STACKBONE_SECRET to a long random string (e.g. `openssl rand -hex 32`); it signs the browsers' identity cookies (docs/security.md).",
    );
  }
  const bytes = Buffer.byteLength(key);
  if (bytes < MIN_SECRET_BYTES) {
    throw new Error(
      `STACKBONE_SECRET is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES}, or anyone who guesses it signs in as any key: make one with \`openssl rand -hex 32\` (to keep browsers signed in, move the old one to STACKBONE_SECRET_PREVIOUS; docs/security.md).`,
    );
  }
}

/** How long the server honours an identity: a month for a key's, a year for a browser's own. */
function maxAgeSeconds(id: string): number {
  return id.startsWith('key:') ? KEY_IDENTITY_MAX_AGE_SECONDS : IDENTITY_MAX_AGE_SECONDS;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function identitiesEnabled(): boolean {
  return configuredApiKeys().length > 0 && signingKey() !== undefined;
}

/** How the identity cookie is set: httpOnly, same-site, a year for a browser's own id and a month for a key's. */
export function identityCookieOptions(id: string, secure: boolean) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    path: '/',
    maxAge: maxAgeSeconds(id),
  };
}

/** The id in a cookie value whose signature holds (under the current or a previous secret), or undefined. */
function verifyIdentity(value: string | undefined): string | undefined {
  return verifiedIdentity(value)?.id;
}

export interface VerifiedIdentity {
  id: string;
  /** Signed with a previous secret, or the old way without a purpose label: the app signs it anew. */
  stale: boolean;
  /** When it was first issued (Unix seconds): a cookie signed anew keeps it, so its life is not extended. */
  issuedAt: number;
}

/**
 * What the server ever issued as an identity: a browser's random id (randomUUID) or a key's
 * owner id (keyOwner). Only such a payload is accepted with an unlabelled signature: a link's
 * payload, or anything else signed the old way, is no identity.
 */
const ISSUED_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|key:[0-9a-f]{24})$/;

/**
 * The id, if the cookie is `<id>.<issued at>.<signature>`, the signature holds (under the current
 * or a previous secret) and the cookie is no older than its max age. During the migration window
 * (docs/security.md, "Signed tokens") a cookie signed before signatures carried their purpose is
 * accepted too, when its payload is an identity the server issued: it is stale, so the next page
 * signs it anew, labelled, with the same issue time. A cookie without an issue time is refused.
 */
export function verifiedIdentity(value: string | undefined, now: Date = new Date()): VerifiedIdentity | undefined {
  if (!value) return undefined;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  const given = value.slice(dot + 1);
  const issued = /^(.+)\.(\d{1,12})$/.exec(payload);
  if (!issued) return undefined;
  const id = issued[1]!;
  const keys = verifyingKeys();
  const index = signedWith('identity', payload, given, keys);
  const unlabelled = index < 0 && ISSUED_ID.test(id) && signedWithoutLabel(payload, given, keys, now) >= 0;
  if (index < 0 && !unlabelled) return undefined;
  const issuedAt = Number(issued[2]);
  const age = Math.floor(now.getTime() / 1000) - issuedAt;
  if (age > maxAgeSeconds(id) || age < -CLOCK_SKEW_SECONDS) return undefined;
  return { id, stale: index !== 0, issuedAt };
}

/** A cookie value for an id, signed with the current secret; `issuedAt` is kept when an existing cookie is signed anew. */
export function signIdentity(id: string, issuedAt: number = nowSeconds()): string {
  const key = signingKey();
  if (!key) throw new Error('Browser identities need STACKBONE_SECRET.');
  const payload = `${id}.${issuedAt}`;
  return `${payload}.${sign('identity', payload, key)}`;
}

/**
 * What a verified identity counts as now: a key's while that key is configured (`key`), a
 * browser's own only while web access is open (`browser`: its guest takes the id), else
 * nothing — one rule for the pages (proxy.ts), the endpoints (owner.ts) and guests (guest-account.ts).
 */
export function honouredIdentity(id: string): 'key' | 'browser' | undefined {
  if (id.startsWith('key:')) return isConfiguredKeyOwner(id) ? 'key' : undefined;
  return browsersWithoutKey() ? 'browser' : undefined;
}

/** The identity cookie of a request, verified. */
export function browserIdentity(request: Request): string | undefined {
  const cookies = request.headers.get('cookie') ?? '';
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === IDENTITY_COOKIE) return verifyIdentity(decodeCookieValue(value.join('=')));
  }
  return undefined;
}

/** A cookie value as sent; a malformed escape (`stackbone_id=%`) is no identity, not an error. */
function decodeCookieValue(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
