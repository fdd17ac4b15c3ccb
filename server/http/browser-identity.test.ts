// The browser's identity cookie: a valid one names its browser; a forged, truncated or
// malformed one (a bad %-escape) is no identity — never an error.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { browserIdentity, checkIdentitySecret, issueIdentity, verifiedIdentity } from './browser-identity';

const request = (cookie: string) => new Request('http://localhost/', { headers: { cookie } });

describe('browserIdentity', () => {
  const NAMES = ['STACKBONE_SECRET', 'STACKBONE_SECRET_PREVIOUS', 'STACKBONE_API_KEYS'] as const;
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    process.env.STACKBONE_SECRET = 'test-secret';
    delete process.env.STACKBONE_SECRET_PREVIOUS;
  });
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const signedWith = (id: string, secret: string) => `${id}.${createHmac('sha256', secret).update(id).digest('base64url')}`;

  it('during a rotation, a cookie signed with a previous secret keeps its id and is marked for re-signing; after it, it is no identity', () => {
    const old = signedWith('browser-1', 'old-secret');
    expect(verifiedIdentity(old)).toBeUndefined();
    process.env.STACKBONE_SECRET_PREVIOUS = 'older, old-secret';
    expect(verifiedIdentity(old)).toEqual({ id: 'browser-1', stale: true });
    expect(verifiedIdentity(signedWith('browser-1', 'test-secret'))).toEqual({ id: 'browser-1', stale: false });
  });

  it('keyed mode needs STACKBONE_SECRET: the server does not start without it, and the key list signs nothing', () => {
    process.env.STACKBONE_API_KEYS = 'key-one';
    expect(() => checkIdentitySecret()).not.toThrow();
    delete process.env.STACKBONE_SECRET;
    expect(() => checkIdentitySecret()).toThrow(/STACKBONE_SECRET is not/);
    expect(() => issueIdentity()).toThrow();
    expect(browserIdentity(request(`stackbone_id=${signedWith('browser-1', 'key-one')}`))).toBeUndefined();
    delete process.env.STACKBONE_API_KEYS;
    expect(() => checkIdentitySecret()).not.toThrow(); // open dev mode: nothing to sign
  });

  it('reads a valid cookie, and treats forged or malformed ones as absent', () => {
    const value = issueIdentity();
    expect(browserIdentity(request(`other=1; stackbone_id=${encodeURIComponent(value)}`))).toBe(value.split('.')[0]);
    for (const cookie of ['stackbone_id=%', 'stackbone_id=%E0%A4%A', 'stackbone_id=', `stackbone_id=${value.slice(0, -2)}`, 'stackbone_id=abc.def', 'stackbone_id']) {
      expect(browserIdentity(request(cookie)), cookie).toBeUndefined();
    }
  });
});
