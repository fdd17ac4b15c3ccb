import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson, linkExpiry, signLink, type LinkClaims } from '../../link-token';
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

  it('expires with its interrupt, or after a week when the interrupt never does', () => {
    expect(linkExpiry('2026-12-03T06:00:00Z', now)).toBe(Date.parse('2026-12-03T06:00:00Z') / 1000);
    expect(linkExpiry(undefined, now)).toBe(now.getTime() / 1000 + 7 * 24 * 3600);
  });
});
