// The browser's signed identity (docs/wires.md, "Auth"): with STACKBONE_API_KEYS set, a browser has no key,
// so the app gives it a random id in an HMAC-signed, httpOnly cookie, and the sessions it
// starts belong to that id. Only the browser's own surfaces accept it (the pages and the AG-UI
// endpoint); the programmatic wires, /api/hitl and the CLI still need a key.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { configuredApiKeys } from './api-keys';

export const IDENTITY_COOKIE = 'stackbone_id';
export const IDENTITY_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;

/** STACKBONE_SECRET, else a key derived from the API keys; none in open dev mode (no identities needed). */
function signingKey(): string | undefined {
  const explicit = process.env.STACKBONE_SECRET?.trim();
  if (explicit) return explicit;
  const keys = configuredApiKeys();
  if (keys.length === 0) return undefined;
  return createHash('sha256').update(`stackbone-browser-identity\n${keys.join(',')}`).digest('hex');
}

function signature(id: string, key: string): string {
  return createHmac('sha256', key).update(id).digest('base64url');
}

export function identitiesEnabled(): boolean {
  return signingKey() !== undefined;
}

/** A new identity cookie value: `<random id>.<signature>`. */
export function issueIdentity(): string {
  const key = signingKey();
  if (!key) throw new Error('Browser identities need STACKBONE_API_KEYS or STACKBONE_SECRET.');
  const id = randomUUID();
  return `${id}.${signature(id, key)}`;
}

/** The id in a cookie value whose signature holds, or undefined. */
export function verifyIdentity(value: string | undefined): string | undefined {
  const key = signingKey();
  if (!key || !value) return undefined;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = value.slice(0, dot);
  const expected = Buffer.from(signature(id, key));
  const given = Buffer.from(value.slice(dot + 1));
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
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
