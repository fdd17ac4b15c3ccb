// The identity cookie a public chat's browser held before guests were Better Auth's: a valid one
// names its browser, so its guest keeps its threads; a forged, truncated, malformed (a bad
// %-escape) or expired one is no id — never an error; nor is a key's cookie (keys are no longer
// exchanged for one), nor any other token the server signs (a link). A cookie signed before
// purpose labels counts only during the migration window (docs/security.md, "Signed tokens").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHmac, randomUUID } from 'node:crypto';
import { argumentsHash, signLink } from '../credentials/link-token';
import { UNLABELLED_SIGNATURES_UNTIL } from '../credentials/signature';
import { LEGACY_BROWSER_MAX_AGE_SECONDS, legacyBrowserId, verifiedBrowserId } from './legacy-browser-cookie';

const headers = (cookie: string) => new Headers({ cookie });
const SECRET = 'test-secret-0123456789abcdef0123456789';
const now = () => Math.floor(Date.now() / 1000);
const NAMES = ['STACKBONE_SECRET', 'STACKBONE_SECRET_PREVIOUS', 'STACKBONE_API_KEYS', 'STACKBONE_WEB_ACCESS'] as const;

describe('a browser identity cookie from before guests', () => {
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    process.env.STACKBONE_SECRET = SECRET;
    process.env.STACKBONE_API_KEYS = 'key-one-0123456789abcdefghij';
    process.env.STACKBONE_WEB_ACCESS = 'open';
    delete process.env.STACKBONE_SECRET_PREVIOUS;
  });
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const hmac = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  /** `<id>.<issued at>.<signature>`, as the server signed a cookie: the HMAC labelled as an identity's. */
  const signedWith = (id: string, secret: string, issuedAt = now()) => `${id}.${issuedAt}.${hmac(`stackbone identity v1\n${id}.${issuedAt}`, secret)}`;
  /** The same, signed as cookies were before purpose labels. */
  const unlabelled = (id: string, secret: string, issuedAt = now()) => `${id}.${issuedAt}.${hmac(`${id}.${issuedAt}`, secret)}`;
  const inWindow = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() - 86_400_000);

  it("names its browser while web access is open; on a team's app (STACKBONE_WEB_ACCESS=key) or in open dev mode it is none", () => {
    const id = randomUUID();
    const cookie = `other=1; stackbone_id=${encodeURIComponent(signedWith(id, SECRET))}`;
    expect(legacyBrowserId(headers(cookie))).toBe(id);
    process.env.STACKBONE_WEB_ACCESS = 'key';
    expect(legacyBrowserId(headers(cookie))).toBeUndefined();
    process.env.STACKBONE_WEB_ACCESS = 'open';
    delete process.env.STACKBONE_API_KEYS;
    expect(legacyBrowserId(headers(cookie))).toBeUndefined();
  });

  it("a key's cookie, from when keys were exchanged for one, names nobody", () => {
    expect(verifiedBrowserId(signedWith('key:0123456789abcdef01234567', SECRET))).toBeUndefined();
    expect(verifiedBrowserId(unlabelled('key:0123456789abcdef01234567', SECRET), inWindow)).toBeUndefined();
  });

  it('during a rotation, one signed with a previous secret (however short) still names its browser; after it, none', () => {
    const id = randomUUID();
    const old = signedWith(id, 'old-secret', now() - 3600);
    expect(verifiedBrowserId(old)).toBeUndefined();
    process.env.STACKBONE_SECRET_PREVIOUS = 'older, old-secret';
    expect(verifiedBrowserId(old)).toBe(id);
  });

  it('is refused once older than a year, or issued in the future, and its issue time is signed', () => {
    const id = randomUUID();
    expect(verifiedBrowserId(signedWith(id, SECRET, now() - LEGACY_BROWSER_MAX_AGE_SECONDS + 60))).toBe(id);
    expect(verifiedBrowserId(signedWith(id, SECRET, now() - LEGACY_BROWSER_MAX_AGE_SECONDS - 60))).toBeUndefined();
    expect(verifiedBrowserId(signedWith(id, SECRET, now() + 86_400))).toBeUndefined();
    const [, , signature] = signedWith(id, SECRET, now() - LEGACY_BROWSER_MAX_AGE_SECONDS - 60).split('.');
    expect(verifiedBrowserId(`${id}.${now()}.${signature}`)).toBeUndefined();
  });

  it('one without an issue time is none, signed either way', () => {
    const id = randomUUID();
    expect(verifiedBrowserId(`${id}.${hmac(id, SECRET)}`, inWindow)).toBeUndefined();
    expect(verifiedBrowserId(`${id}.${hmac(`stackbone identity v1\n${id}`, SECRET)}`, inWindow)).toBeUndefined();
  });

  it('a link token, signed now or before purpose labels, is none', () => {
    const token = signLink({ interruptId: 'int_1', action: 'approve', argsHash: argumentsHash({}), expiresAt: now() + 3600, recipient: 'slack' });
    expect(verifiedBrowserId(token, inWindow)).toBeUndefined();
    expect(legacyBrowserId(headers(`stackbone_id=${token}`))).toBeUndefined();
    const payload = token.split('.')[0]!;
    expect(verifiedBrowserId(`${payload}.${hmac(payload, SECRET)}`, inWindow)).toBeUndefined();
    const shaped = `${payload}.${now()}`;
    expect(verifiedBrowserId(`${shaped}.${hmac(shaped, SECRET)}`, inWindow)).toBeUndefined();
  });

  it('migration: one signed before purpose labels names its browser until the window ends, under a previous secret too', () => {
    const id = randomUUID();
    const issuedAt = Math.floor(inWindow.getTime() / 1000) - 3600;
    expect(verifiedBrowserId(unlabelled(id, SECRET, issuedAt), inWindow)).toBe(id);
    expect(verifiedBrowserId(unlabelled(id, 'old-secret', issuedAt), inWindow)).toBeUndefined();
    process.env.STACKBONE_SECRET_PREVIOUS = 'old-secret';
    expect(verifiedBrowserId(unlabelled(id, 'old-secret', issuedAt), inWindow)).toBe(id);
    expect(verifiedBrowserId(unlabelled('browser-1', SECRET, issuedAt), inWindow)).toBeUndefined();
    const after = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() + 1000);
    expect(verifiedBrowserId(unlabelled(id, SECRET, Math.floor(after.getTime() / 1000) - 3600), after)).toBeUndefined();
  });

  it('forged or malformed ones are absent, not errors', () => {
    const value = signedWith(randomUUID(), SECRET);
    for (const cookie of [
      'stackbone_id=%',
      'stackbone_id=%E0%A4%A',
      'stackbone_id=',
      `stackbone_id=${value.slice(0, -2)}`,
      `stackbone_id=${signedWith(randomUUID(), 'another-secret-0123456789abcdef')}`,
      'stackbone_id=abc.def',
      'stackbone_id=abc.1.def',
      'stackbone_id',
    ]) {
      expect(legacyBrowserId(headers(cookie)), cookie).toBeUndefined();
    }
  });
});
