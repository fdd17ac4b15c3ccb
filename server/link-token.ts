// A signed one-time link (docs/approvals.md, "Notifications and one-click links"): the
// capability a notification hands its recipient to approve or reject one interrupt. The token
// names the interrupt, the action, a hash of the arguments as they will run, when it stops
// working and whom it was minted for, and carries an HMAC-SHA256 of all that under
// STACKBONE_SECRET. It is one-time because the interrupt it names is decided once: the decision
// pipeline refuses every later one (link-decision.ts). This file is the token alone: pure, no store.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isOpenDevMode } from '../../open-dev-mode';
import { Refusal } from '../errors';

export type LinkAction = 'approve' | 'reject' | 'open';

/** What a link says, signed. */
export interface LinkClaims {
  interruptId: string;
  action: LinkAction;
  /** sha256 (hex) of the canonical JSON of the interrupt's arguments as they will run (`record.input`). */
  argsHash: string;
  /** When the link stops working (Unix seconds). */
  expiresAt: number;
  /** Whom it was minted for: `email:desk@example.com`, `slack`. Recorded with the decision. */
  recipient: string;
}

/** How long a link lives when its interrupt has no expiry of its own. */
export const DEFAULT_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

const ACTIONS: readonly LinkAction[] = ['approve', 'reject', 'open'];
/** A token longer than this is none of ours (a recipient is an address, an id is short). */
const MAX_TOKEN_LENGTH = 2048;

/**
 * Open dev mode needs no STACKBONE_SECRET (docs/security.md, "Modes"): every request there is
 * the one local owner and decides every approval already, so a link proves nothing a request
 * does not, and one fixed key signs them — links keep working across restarts of `npm run dev`.
 * Keyed mode never gets here without a secret: the server does not start without one
 * (server/identity/browser-identity.ts, checkIdentitySecret).
 */
const OPEN_DEV_MODE_KEY = 'stackbone open dev mode: links are signed with this fixed key';

function signingKey(): string {
  const secret = process.env.STACKBONE_SECRET?.trim();
  if (secret) return secret;
  if (isOpenDevMode()) return OPEN_DEV_MODE_KEY;
  throw new Error('Signed links need STACKBONE_SECRET (`openssl rand -hex 32`; docs/security.md).');
}

/** The current key, then STACKBONE_SECRET_PREVIOUS (comma-separated): links mailed before a rotation keep working. */
function verifyingKeys(): string[] {
  const previous = (process.env.STACKBONE_SECRET_PREVIOUS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  return [signingKey(), ...previous];
}

/** JSON with every object's keys in order, so equal values hash the same whatever order they were built in. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The hash a link carries of the arguments a call will run with. */
export function argumentsHash(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

function signature(payload: string, key: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** A token: `<base64url of the claims' JSON>.<base64url of their HMAC>`. */
export function signLink(claims: LinkClaims): string {
  const payload = Buffer.from(
    JSON.stringify({ i: claims.interruptId, a: claims.action, h: claims.argsHash, e: claims.expiresAt, r: claims.recipient }),
  ).toString('base64url');
  return `${payload}.${signature(payload, signingKey()).toString('base64url')}`;
}

/** When a link for an interrupt stops working: the interrupt's own expiry, else a week from now. */
export function linkExpiry(expiresAt: string | undefined, now: Date = new Date()): number {
  const own = expiresAt ? Date.parse(expiresAt) : NaN;
  return Math.floor((Number.isFinite(own) ? own : now.getTime() + DEFAULT_LINK_TTL_SECONDS * 1000) / 1000);
}

/**
 * The claims of a token whose signature holds (under the current or a previous secret) and whose
 * time has not run out. Throws `link_invalid` for anything malformed or signed with another key,
 * `link_expired` past its expiry. Whether it still fits its interrupt is link-decision.ts's.
 */
export function verifyLink(token: string, now: Date = new Date()): LinkClaims {
  const invalid = () => new Refusal('link_invalid', 'This link is not valid: it may be incomplete (copy the whole link) or was not made by this server.');
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !/^[\w-]+\.[\w-]+$/.test(token)) throw invalid();
  const [payload, given] = token.split('.') as [string, string];
  const presented = Buffer.from(given, 'base64url');
  const signed = verifyingKeys().some((key) => {
    const expected = signature(payload, key);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
  if (!signed) throw invalid();
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const claims = raw as { i?: unknown; a?: unknown; h?: unknown; e?: unknown; r?: unknown };
  if (
    typeof claims.i !== 'string' ||
    !ACTIONS.includes(claims.a as LinkAction) ||
    typeof claims.h !== 'string' ||
    typeof claims.e !== 'number' ||
    typeof claims.r !== 'string'
  )
    throw invalid();
  if (now.getTime() >= claims.e * 1000) {
    throw new Refusal('link_expired', `This link expired on ${new Date(claims.e * 1000).toUTCString()}. Open the request in Studio to decide it.`, {
      interruptId: claims.i,
    });
  }
  return { interruptId: claims.i, action: claims.a as LinkAction, argsHash: claims.h, expiresAt: claims.e, recipient: claims.r };
}
