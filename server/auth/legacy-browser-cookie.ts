// The identity cookie a public chat gave each browser before guests were Better Auth's
// (docs/users-and-roles.md, "Upgrading"): `stackbone_id=<id>.<issued at, Unix seconds>.<HMAC of
// both>`, the id a random UUID, the HMAC labelled as an identity's (server/credentials/signature.ts)
// and keyed with STACKBONE_SECRET. It is never issued now and proves nothing to any endpoint; it is
// read only when its browser becomes a guest or signs up, so that the guest or account keeps its
// id and with it the threads (guest-account.ts). It counts while web access is open, for a year
// from its issue, under the current or a previous secret.
import { previousSecrets, signedWith, signedWithoutLabel } from '../credentials/signature';
import { browsersWithoutKey } from '../identity/web-access';
import { setting } from '../config';

const LEGACY_BROWSER_COOKIE = 'stackbone_id';
/** How long a browser's own cookie was honoured: a year from its issue. */
export const LEGACY_BROWSER_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;
/** How far in the future an issue time may lie (another instance's clock). */
const CLOCK_SKEW_SECONDS = 300;
/** The only ids a browser's cookie ever carried. */
const BROWSER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The browser id in a cookie value whose signature holds (labelled, or — during the migration
 * window, docs/security.md "Signed tokens" — signed the old way without a label) and which is no
 * older than a year; else undefined, never an error. Any other id (a key's cookie, from when keys
 * were exchanged for cookies, or a link's claims) is none.
 */
export function verifiedBrowserId(value: string | undefined, now: Date = new Date()): string | undefined {
  const parts = /^([^.]+)\.(\d{1,12})\.([\w-]+)$/.exec(value ?? '');
  if (!parts || !BROWSER_ID.test(parts[1]!)) return undefined;
  const [, id, issued, given] = parts as unknown as [string, string, string, string];
  const current = setting('STACKBONE_SECRET');
  const secrets = current ? [current, ...previousSecrets()] : [];
  const payload = `${id}.${issued}`;
  if (signedWith('identity', payload, given, secrets) < 0 && signedWithoutLabel(payload, given, secrets, now) < 0) return undefined;
  const age = Math.floor(now.getTime() / 1000) - Number(issued);
  return age > LEGACY_BROWSER_MAX_AGE_SECONDS || age < -CLOCK_SKEW_SECONDS ? undefined : id;
}

/** The browser id of these request headers' old cookie, while web access is open (guests are made); else undefined. */
export function legacyBrowserId(headers: Headers | undefined): string | undefined {
  if (!headers || !browsersWithoutKey()) return undefined;
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LEGACY_BROWSER_COOKIE) return verifiedBrowserId(decodeCookieValue(value.join('=')));
  }
  return undefined;
}

/** A cookie value as sent; a malformed escape (`stackbone_id=%`) is no id, not an error. */
function decodeCookieValue(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
