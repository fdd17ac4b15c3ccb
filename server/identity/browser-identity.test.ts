// The browser's identity cookie: a valid one names its browser; a forged, truncated, malformed
// (a bad %-escape) or expired one is no identity — never an error; nor is any other token the
// server signs (a link), and a cookie signed before purpose labels counts only during the
// migration window (docs/security.md, "Signed tokens").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHmac, randomUUID } from 'node:crypto';
import { argumentsHash, signLink } from '../credentials/link-token';
import { UNLABELLED_SIGNATURES_UNTIL } from '../credentials/signature';
import {
  browserIdentity,
  checkIdentitySecret,
  IDENTITY_MAX_AGE_SECONDS,
  KEY_IDENTITY_MAX_AGE_SECONDS,
  signIdentity,
  verifiedIdentity,
} from './browser-identity';

const request = (cookie: string) => new Request('http://localhost/', { headers: { cookie } });
const SECRET = 'test-secret-0123456789abcdef0123456789';
const now = () => Math.floor(Date.now() / 1000);

describe('browserIdentity', () => {
  const NAMES = ['STACKBONE_SECRET', 'STACKBONE_SECRET_PREVIOUS', 'STACKBONE_API_KEYS'] as const;
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    process.env.STACKBONE_SECRET = SECRET;
    delete process.env.STACKBONE_SECRET_PREVIOUS;
  });
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const hmac = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  /** `<id>.<issued at>.<signature>`, as the server signs a cookie: the HMAC labelled as an identity's. */
  const signedWith = (id: string, secret: string, issuedAt = now()) => `${id}.${issuedAt}.${hmac(`stackbone identity v1\n${id}.${issuedAt}`, secret)}`;
  /** The same, signed as cookies were before purpose labels. */
  const unlabelled = (id: string, secret: string, issuedAt = now()) => `${id}.${issuedAt}.${hmac(`${id}.${issuedAt}`, secret)}`;
  /** `<id>.<signature>`: a cookie from before cookies carried an issue time. */
  const legacy = (id: string, secret: string) => `${id}.${hmac(id, secret)}`;
  const inWindow = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() - 86_400_000);

  it('during a rotation, a cookie signed with a previous secret (however short) keeps its id and issue time and is marked for re-signing; after it, it is no identity', () => {
    const issuedAt = now() - 3600;
    const old = signedWith('browser-1', 'old-secret', issuedAt);
    expect(verifiedIdentity(old)).toBeUndefined();
    process.env.STACKBONE_SECRET_PREVIOUS = 'older, old-secret';
    expect(verifiedIdentity(old)).toEqual({ id: 'browser-1', stale: true, issuedAt });
    expect(verifiedIdentity(signedWith('browser-1', SECRET, issuedAt))).toEqual({ id: 'browser-1', stale: false, issuedAt });
    expect(signIdentity('browser-1', issuedAt)).toBe(signedWith('browser-1', SECRET, issuedAt));
  });

  it('refuses a cookie older than its max age on the server: a month for a key, a year for a browser; and one issued in the future', () => {
    const key = 'key:0123456789abcdef01234567';
    expect(verifiedIdentity(signedWith(key, SECRET, now() - KEY_IDENTITY_MAX_AGE_SECONDS + 60))?.id).toBe(key);
    expect(verifiedIdentity(signedWith(key, SECRET, now() - KEY_IDENTITY_MAX_AGE_SECONDS - 60))).toBeUndefined();
    expect(verifiedIdentity(signedWith('browser-1', SECRET, now() - KEY_IDENTITY_MAX_AGE_SECONDS - 60))?.id).toBe('browser-1');
    expect(verifiedIdentity(signedWith('browser-1', SECRET, now() - IDENTITY_MAX_AGE_SECONDS - 60))).toBeUndefined();
    expect(verifiedIdentity(signedWith('browser-1', SECRET, now() + 86_400))).toBeUndefined();
    // The issue time is signed: moving it forward breaks the signature.
    const value = signedWith(key, SECRET, now() - KEY_IDENTITY_MAX_AGE_SECONDS - 60);
    const [id, , signature] = value.split('.');
    expect(verifiedIdentity(`${id}.${now()}.${signature}`)).toBeUndefined();
  });

  it("a cookie without an issue time is no identity, a browser's or a key's, signed either way", () => {
    for (const id of [randomUUID(), 'key:0123456789abcdef01234567']) {
      expect(verifiedIdentity(legacy(id, SECRET), inWindow), id).toBeUndefined();
      expect(verifiedIdentity(`${id}.${hmac(`stackbone identity v1\n${id}`, SECRET)}`, inWindow), id).toBeUndefined();
    }
  });

  it('a link token, signed now or before purpose labels, is no identity, and nothing in it is signed anew', () => {
    const token = signLink({ interruptId: 'int_1', action: 'approve', argsHash: argumentsHash({}), expiresAt: now() + 3600, recipient: 'slack' });
    expect(verifiedIdentity(token, inWindow)).toBeUndefined();
    expect(browserIdentity(request(`stackbone_id=${token}`))).toBeUndefined();
    // The same claims signed as links were before purpose labels.
    const payload = token.split('.')[0]!;
    expect(verifiedIdentity(`${payload}.${hmac(payload, SECRET)}`, inWindow)).toBeUndefined();
    // Even one shaped like a cookie (a dot and digits at its end) is refused unless its id is one the server issues.
    const shaped = `${payload}.${now()}`;
    expect(verifiedIdentity(`${shaped}.${hmac(shaped, SECRET)}`, inWindow)).toBeUndefined();
  });

  it('migration: a cookie signed before purpose labels keeps its id and issue time, marked to be signed anew, until the window ends', () => {
    const browser = randomUUID();
    const key = 'key:0123456789abcdef01234567';
    const issuedAt = Math.floor(inWindow.getTime() / 1000) - 3600;
    expect(verifiedIdentity(unlabelled(browser, SECRET, issuedAt), inWindow)).toEqual({ id: browser, stale: true, issuedAt });
    expect(verifiedIdentity(unlabelled(key, SECRET, issuedAt), inWindow)).toEqual({ id: key, stale: true, issuedAt });
    // Signed anew, it is labelled: the same id and issue time, no longer stale, and it outlives the window.
    const renewed = signIdentity(browser, issuedAt);
    expect(renewed).toBe(signedWith(browser, SECRET, issuedAt));
    expect(verifiedIdentity(renewed, inWindow)).toEqual({ id: browser, stale: false, issuedAt });
    expect(verifiedIdentity(renewed, UNLABELLED_SIGNATURES_UNTIL)).toEqual({ id: browser, stale: false, issuedAt });
    // Its max age still holds, and a previous secret still verifies it during a rotation.
    expect(verifiedIdentity(unlabelled(key, SECRET, issuedAt - KEY_IDENTITY_MAX_AGE_SECONDS), inWindow)).toBeUndefined();
    expect(verifiedIdentity(unlabelled(browser, 'old-secret', issuedAt), inWindow)).toBeUndefined();
    process.env.STACKBONE_SECRET_PREVIOUS = 'old-secret';
    expect(verifiedIdentity(unlabelled(browser, 'old-secret', issuedAt), inWindow)).toEqual({ id: browser, stale: true, issuedAt });
    // An id the server never issues (a browser's is a UUID, a key's `key:` and 24 hex digits) is refused.
    expect(verifiedIdentity(unlabelled('browser-1', SECRET, issuedAt), inWindow)).toBeUndefined();
    // Once the window has ended, none is an identity.
    const after = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() + 1000);
    expect(verifiedIdentity(unlabelled(browser, SECRET, Math.floor(after.getTime() / 1000) - 3600), after)).toBeUndefined();
  });

  it('keyed mode needs STACKBONE_SECRET of 32 bytes or more: the server does not start without it, and the key list signs nothing', () => {
    process.env.STACKBONE_API_KEYS = 'key-one';
    expect(() => checkIdentitySecret()).not.toThrow();
    process.env.STACKBONE_SECRET = 'test-secret';
    expect(() => checkIdentitySecret()).toThrow(/STACKBONE_SECRET is 11 bytes; it must be at least 32.*openssl rand -hex 32/);
    process.env.STACKBONE_SECRET = 'x'.repeat(32);
    expect(() => checkIdentitySecret()).not.toThrow();
    process.env.STACKBONE_SECRET_PREVIOUS = 'short'; // a legacy secret being rotated away
    expect(() => checkIdentitySecret()).not.toThrow();
    delete process.env.STACKBONE_SECRET;
    expect(() => checkIdentitySecret()).toThrow(/STACKBONE_SECRET is not/);
    expect(() => signIdentity('key:0123456789abcdef01234567')).toThrow();
    expect(browserIdentity(request(`stackbone_id=${signedWith('browser-1', 'key-one')}`))).toBeUndefined();
    delete process.env.STACKBONE_API_KEYS;
    process.env.STACKBONE_SECRET = 'short';
    expect(() => checkIdentitySecret()).not.toThrow(); // open dev mode: nothing to sign
  });

  it('reads a valid cookie, and treats forged or malformed ones as absent', () => {
    const value = signIdentity(randomUUID());
    expect(value).toMatch(/^[0-9a-f-]{36}\.\d+\.[\w-]+$/);
    expect(browserIdentity(request(`other=1; stackbone_id=${encodeURIComponent(value)}`))).toBe(value.split('.')[0]);
    for (const cookie of [
      'stackbone_id=%',
      'stackbone_id=%E0%A4%A',
      'stackbone_id=',
      `stackbone_id=${value.slice(0, -2)}`,
      'stackbone_id=abc.def',
      'stackbone_id=abc.1.def',
      'stackbone_id',
    ]) {
      expect(browserIdentity(request(cookie)), cookie).toBeUndefined();
    }
  });
});
