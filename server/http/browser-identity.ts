// The browser's signed identity (docs/security.md, "Modes"): with STACKBONE_API_KEYS set, the app
// keeps who a browser is in an HMAC-signed, httpOnly cookie. Its id is either `key:<hash>` — an
// API key was entered in the app and exchanged for the cookie, which then acts as that key — or
// a random id (STACKBONE_WEB_ACCESS=open), which owns the sessions that browser starts. Only the
// app's own surfaces read the cookie; the programmatic wires and the CLI send the key itself.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { configuredApiKeys, isConfiguredKeyOwner } from './api-keys';
import { browsersWithoutKey } from './web-access';

export const IDENTITY_COOKIE = 'stackbone_id';
export const IDENTITY_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;
export const KEY_IDENTITY_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

/**
 * STACKBONE_SECRET signs new identities. It is required in keyed mode (checkIdentitySecret()
 * stops the server from starting without it): deriving it from the API keys would sign every
 * browser out when a key rotates, and let anyone who holds the key list forge identities.
 */
function signingKey(): string | undefined {
  return process.env.STACKBONE_SECRET?.trim() || undefined;
}

/** Secrets a cookie may still be signed with: the current one, then STACKBONE_SECRET_PREVIOUS (comma-separated) during a rotation. */
function verifyingKeys(): string[] {
  const current = signingKey();
  const previous = (process.env.STACKBONE_SECRET_PREVIOUS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  return current ? [current, ...previous] : [];
}

/** Throws the start-up error of a keyed server without STACKBONE_SECRET (instrumentation.ts). */
export function checkIdentitySecret(): void {
  if (configuredApiKeys().length > 0 && !signingKey()) {
    throw new Error('STACKBONE_API_KEYS is set but STACKBONE_SECRET is not: set STACKBONE_SECRET to a long random string (e.g. `openssl rand -hex 32`); it signs the browsers\' identity cookies (docs/security.md).');
  }
}

function signature(id: string, key: string): string {
  return createHmac('sha256', key).update(id).digest('base64url');
}

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
    maxAge: id.startsWith('key:') ? KEY_IDENTITY_MAX_AGE_SECONDS : IDENTITY_MAX_AGE_SECONDS,
  };
}

/** A new identity cookie value: `<random id>.<signature>`. */
export function issueIdentity(): string {
  const key = signingKey();
  if (!key) throw new Error('Browser identities need STACKBONE_SECRET.');
  const id = randomUUID();
  return `${id}.${signature(id, key)}`;
}

/** The id in a cookie value whose signature holds (under the current or a previous secret), or undefined. */
export function verifyIdentity(value: string | undefined): string | undefined {
  return verifiedIdentity(value)?.id;
}

/** The id, and whether its cookie is signed with a previous secret (the app then signs it anew). */
export function verifiedIdentity(value: string | undefined): { id: string; stale: boolean } | undefined {
  if (!value) return undefined;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const index = verifyingKeys().findIndex((key) => {
    const expected = Buffer.from(signature(id, key));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return index < 0 ? undefined : { id, stale: index > 0 };
}

/** A cookie value for an existing id, signed with the current secret. */
export function signIdentity(id: string): string {
  const key = signingKey();
  if (!key) throw new Error('Browser identities need STACKBONE_SECRET.');
  return `${id}.${signature(id, key)}`;
}

/**
 * What a verified identity counts as now: a key's while that key is configured (`key`), a
 * browser's own only while web access is open (`browser`), else nothing — one rule for the
 * pages (proxy.ts) and the endpoints (owner.ts).
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
