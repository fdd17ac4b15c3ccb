// A signed one-time link (docs/approvals.md, "Notifications and one-click links"): the
// capability a notification hands its recipient to approve or reject one interrupt. The token
// names the interrupt, the action, a hash of the arguments as they will run, when it stops
// working and whom it was minted for, and carries an HMAC-SHA256 of all that under
// STACKBONE_SECRET, labelled as a link's (server/credentials/signature.ts: no other token verifies as one).
// It is one-time because the interrupt it names is decided once: the decision pipeline refuses
// every later one (runtime/turn-control/decide-by-link.ts). This file is the token alone — pure,
// no store, no runtime — so proxy.ts reads it too, to answer a bad link's page with its status;
// the runtime's refusals are runtime/notify/signed-link.ts.
import { createHash } from 'node:crypto';
import { isOpenDevMode } from './open-dev-mode';
import { previousSecrets, sign, signedWith, signedWithoutLabel } from './signature';
import { setting } from '../config';

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
const DEFAULT_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

const ACTIONS: readonly LinkAction[] = ['approve', 'reject', 'open'];
/** A token longer than this is none of ours (a recipient is an address, an id is short). */
const MAX_TOKEN_LENGTH = 2048;

/**
 * Open dev mode needs no STACKBONE_SECRET (docs/security.md, "Modes"): every request there is
 * the one local owner and decides every approval already, so a link proves nothing a request
 * does not, and one fixed key signs them — links keep working across restarts of `npm run dev`.
 * Keyed mode never gets here without a secret: the server does not start without one
 * (signing-secret.ts, checkSigningSecret).
 */
const OPEN_DEV_MODE_KEY = 'stackbone open dev mode: links are signed with this fixed key';

function signingKey(): string {
  const secret = setting('STACKBONE_SECRET');
  if (secret) return secret;
  if (isOpenDevMode()) return OPEN_DEV_MODE_KEY;
  throw new Error('Signed links need STACKBONE_SECRET (`openssl rand -hex 32`; docs/security.md).');
}

/** The current key, then STACKBONE_SECRET_PREVIOUS (comma-separated): links mailed before a rotation keep working. */
function verifyingKeys(): string[] {
  return [signingKey(), ...previousSecrets()];
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

/** A token: `<base64url of the claims' JSON>.<base64url of their HMAC>`. */
export function signLink(claims: LinkClaims): string {
  const payload = Buffer.from(
    JSON.stringify({ i: claims.interruptId, a: claims.action, h: claims.argsHash, e: claims.expiresAt, r: claims.recipient }),
  ).toString('base64url');
  return `${payload}.${sign('link', payload, signingKey())}`;
}

/** When a link for an interrupt stops working: the interrupt's own expiry, else a week from now. */
export function linkExpiry(expiresAt: string | undefined, now: Date = new Date()): number {
  const own = expiresAt ? Date.parse(expiresAt) : NaN;
  return Math.floor((Number.isFinite(own) ? own : now.getTime() + DEFAULT_LINK_TTL_SECONDS * 1000) / 1000);
}

/** What a token is worth: its claims, or why it is none (an expired one still says what it was for). */
export type LinkToken = { claims: LinkClaims; problem?: undefined } | { problem: 'invalid'; claims?: undefined } | { problem: 'expired'; claims: LinkClaims };

/**
 * Reads a token: `invalid` when it is malformed or its signature holds under none of the keys
 * (the current secret, then the previous ones), `expired` past its expiry, else its claims.
 * A link mailed before signatures carried their purpose still verifies until it expires or
 * UNLABELLED_SIGNATURES_UNTIL comes, whichever is first (docs/security.md, "Signed tokens"):
 * its payload must be a link's claims all the same, so no other token passes for one.
 */
export function readLinkToken(token: string, now: Date = new Date()): LinkToken {
  const invalid = { problem: 'invalid' } as const;
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !/^[\w-]+\.[\w-]+$/.test(token)) return invalid;
  const [payload, given] = token.split('.') as [string, string];
  const keys = verifyingKeys();
  if (signedWith('link', payload, given, keys) < 0 && signedWithoutLabel(payload, given, keys, now) < 0) return invalid;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  const fields = raw as { i?: unknown; a?: unknown; h?: unknown; e?: unknown; r?: unknown } | null;
  if (
    !fields ||
    typeof fields.i !== 'string' ||
    !ACTIONS.includes(fields.a as LinkAction) ||
    typeof fields.h !== 'string' ||
    typeof fields.e !== 'number' ||
    typeof fields.r !== 'string'
  )
    return invalid;
  const claims: LinkClaims = { interruptId: fields.i, action: fields.a as LinkAction, argsHash: fields.h, expiresAt: fields.e, recipient: fields.r };
  return now.getTime() >= claims.expiresAt * 1000 ? { problem: 'expired', claims } : { claims };
}
