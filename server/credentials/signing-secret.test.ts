// STACKBONE_SECRET signs approval links and, without BETTER_AUTH_SECRET, the sign-in sessions: a
// keyed server does not start without a long one (docs/security.md, "Modes").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSigningSecret } from './signing-secret';

const NAMES = ['STACKBONE_SECRET', 'STACKBONE_SECRET_PREVIOUS', 'STACKBONE_API_KEYS', 'STACKBONE_WAKER'] as const;

describe('STACKBONE_SECRET', () => {
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => (saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]))));
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('a keyed server needs one of 32 bytes or more: it does not start without it, and the key list signs nothing', () => {
    process.env.STACKBONE_API_KEYS = 'key-one-0123456789abcdefghij';
    process.env.STACKBONE_SECRET = 'test-secret';
    expect(() => checkSigningSecret()).toThrow(/STACKBONE_SECRET is 11 bytes; it must be at least 32.*openssl rand -hex 32/);
    process.env.STACKBONE_SECRET = 'x'.repeat(32);
    expect(() => checkSigningSecret()).not.toThrow();
    process.env.STACKBONE_SECRET_PREVIOUS = 'short'; // a legacy secret being rotated away
    expect(() => checkSigningSecret()).not.toThrow();
    delete process.env.STACKBONE_SECRET;
    expect(() => checkSigningSecret()).toThrow(/STACKBONE_SECRET is not/);
    delete process.env.STACKBONE_API_KEYS;
    process.env.STACKBONE_SECRET = 'short';
    expect(() => checkSigningSecret()).not.toThrow(); // open dev mode: nothing to sign
  });

  it('a server whose due work is woken by Vercel Queues needs one too, keys or not: it signs the wakes (docs/deploy.md, "Due work")', () => {
    delete process.env.STACKBONE_API_KEYS;
    delete process.env.STACKBONE_SECRET;
    process.env.STACKBONE_WAKER = 'vercel-queue';
    expect(() => checkSigningSecret()).toThrow(/^STACKBONE_WAKER=vercel-queue is set but STACKBONE_SECRET is not/);
    process.env.STACKBONE_SECRET = 'short';
    expect(() => checkSigningSecret()).toThrow(/must be at least 32/);
    process.env.STACKBONE_SECRET = 'x'.repeat(32);
    expect(() => checkSigningSecret()).not.toThrow();
  });
});
