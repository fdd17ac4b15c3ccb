import { createHmac, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson, linkExpiry, signLink, type LinkClaims } from '../../credentials/link-token';
import { sign, UNLABELLED_SIGNATURES_UNTIL } from '../../credentials/signature';
import { verifyLink } from './signed-link';

const SECRET = 'a'.repeat(64);
const now = new Date('2026-12-02T06:00:00Z');
const claims = (extra: Partial<LinkClaims> = {}): LinkClaims => ({
  interruptId: 'int_1',
  action: 'approve',
  argsHash: argumentsHash({ orderId: 'A-1001', amount: 120 }),
  expiresAt: Math.floor(now.getTime() / 1000) + 3600,
  recipient: 'email:desk@example.com',
  ...extra,
});

const env = { ...process.env };
beforeEach(() => {
  process.env.STACKBONE_SECRET = SECRET;
  delete process.env.STACKBONE_SECRET_PREVIOUS;
});
afterEach(() => {
  process.env = { ...env };
});

describe('a signed link', () => {
  it('verifies to the claims it was signed with', () => {
    const token = signLink(claims());
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(verifyLink(token, now)).toEqual(claims());
  });

  it('is refused when any byte of its claims or signature changed', () => {
    const token = signLink(claims());
    const [payload, signature] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: 'reject' })).toString('base64url');
    expect(() => verifyLink(`${other}.${signature}`, now)).toThrow(expect.objectContaining({ code: 'link_invalid', status: 403 }));
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(() => verifyLink(`${payload}.${flipped}`, now)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
    for (const junk of ['', 'x', 'a.b.c', `${payload}.`, `${payload}.${signature}!`, 'a'.repeat(3000)]) {
      expect(() => verifyLink(junk, now), junk).toThrow(expect.objectContaining({ code: 'link_invalid' }));
    }
  });

  it('is refused once it expired', () => {
    const token = signLink(claims());
    expect(() => verifyLink(token, new Date(now.getTime() + 3600_000))).toThrow(expect.objectContaining({ code: 'link_expired', status: 410 }));
  });

  it('is refused under another secret, and still verifies under a previous one during a rotation', () => {
    const token = signLink(claims());
    process.env.STACKBONE_SECRET = 'b'.repeat(64);
    expect(() => verifyLink(token, now)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
    process.env.STACKBONE_SECRET_PREVIOUS = SECRET;
    expect(verifyLink(token, now).interruptId).toBe('int_1');
  });

  it('in open dev mode without a secret is signed with the fixed key; a keyed server without one signs nothing', () => {
    delete process.env.STACKBONE_SECRET;
    delete process.env.STACKBONE_API_KEYS;
    expect(verifyLink(signLink(claims()), now).recipient).toBe('email:desk@example.com');
    process.env.STACKBONE_API_KEYS = 'k1';
    expect(() => signLink(claims())).toThrow(/STACKBONE_SECRET/);
  });

  it('hashes arguments canonically: key order does not matter, a value does', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(argumentsHash({ amount: 120, orderId: 'A-1001' })).toBe(argumentsHash({ orderId: 'A-1001', amount: 120 }));
    expect(argumentsHash({ orderId: 'A-1001', amount: 121 })).not.toBe(argumentsHash({ orderId: 'A-1001', amount: 120 }));
  });

  it('is signed as a link: the HMAC of its bare claims is not its signature, and an identity cookie is no link', () => {
    const token = signLink(claims());
    const [payload, signature] = token.split('.') as [string, string];
    expect(signature).toBe(createHmac('sha256', SECRET).update(`stackbone link v1\n${payload}`).digest('base64url'));
    // The same claims signed as an identity (the cookie's purpose) are refused.
    expect(() => verifyLink(`${payload}.${sign('identity', payload, SECRET)}`, now)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
  });

  it("migration: a link mailed before purpose labels verifies until it expires or the window ends, and only with a link's claims", () => {
    const unlabelled = (payload: string, secret = SECRET) => `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    const inWindow = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() - 86_400_000);
    const seconds = Math.floor(inWindow.getTime() / 1000);
    const old = unlabelled(signLink(claims({ expiresAt: seconds + 3600 })).split('.')[0]!);
    expect(verifyLink(old, inWindow)).toEqual(claims({ expiresAt: seconds + 3600 }));
    expect(() => verifyLink(old, new Date((seconds + 3600) * 1000))).toThrow(expect.objectContaining({ code: 'link_expired' }));
    // A rotation's previous secret still verifies it.
    const rotated = unlabelled(signLink(claims({ expiresAt: seconds + 3600 })).split('.')[0]!, 'old-secret');
    expect(() => verifyLink(rotated, inWindow)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
    process.env.STACKBONE_SECRET_PREVIOUS = 'old-secret';
    expect(verifyLink(rotated, inWindow).interruptId).toBe('int_1');
    // A link whose own expiry lies past the window stops at the window's end.
    const longLived = unlabelled(signLink(claims({ expiresAt: Math.floor(UNLABELLED_SIGNATURES_UNTIL.getTime() / 1000) + 86_400 })).split('.')[0]!);
    expect(verifyLink(longLived, inWindow).interruptId).toBe('int_1');
    expect(() => verifyLink(longLived, UNLABELLED_SIGNATURES_UNTIL)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
    // What was signed the old way but is not a link's claims (an identity cookie's payload) is refused.
    const cookiePayload = Buffer.from(`${randomUUID()}.${seconds}`).toString('base64url');
    expect(() => verifyLink(unlabelled(cookiePayload), inWindow)).toThrow(expect.objectContaining({ code: 'link_invalid' }));
  });

  it('expires with its interrupt, or after a week when the interrupt never does', () => {
    expect(linkExpiry('2026-12-03T06:00:00Z', now)).toBe(Date.parse('2026-12-03T06:00:00Z') / 1000);
    expect(linkExpiry(undefined, now)).toBe(now.getTime() / 1000 + 7 * 24 * 3600);
  });
});
