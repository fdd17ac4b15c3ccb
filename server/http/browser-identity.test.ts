// The browser's identity cookie: a valid one names its browser; a forged, truncated or
// malformed one (a bad %-escape) is no identity — never an error.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserIdentity, issueIdentity } from './browser-identity';

const request = (cookie: string) => new Request('http://localhost/', { headers: { cookie } });

describe('browserIdentity', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.STACKBONE_SECRET;
    process.env.STACKBONE_SECRET = 'test-secret';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.STACKBONE_SECRET;
    else process.env.STACKBONE_SECRET = saved;
  });

  it('reads a valid cookie, and treats forged or malformed ones as absent', () => {
    const value = issueIdentity();
    expect(browserIdentity(request(`other=1; stackbone_id=${encodeURIComponent(value)}`))).toBe(value.split('.')[0]);
    for (const cookie of ['stackbone_id=%', 'stackbone_id=%E0%A4%A', 'stackbone_id=', `stackbone_id=${value.slice(0, -2)}`, 'stackbone_id=abc.def', 'stackbone_id']) {
      expect(browserIdentity(request(cookie)), cookie).toBeUndefined();
    }
  });
});
