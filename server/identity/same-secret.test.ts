// A presented key matches only the configured key itself: not a prefix, an extension, or a
// neighbour that differs in one character (the comparison that owner.ts and the cron routes use).
import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret';

describe('sameSecret', () => {
  it('accepts the secret itself and nothing close to it', () => {
    const secret = 'key-0123456789abcdef';
    expect(sameSecret(secret, secret)).toBe(true);
    for (const guess of ['', 'key-0123456789abcde', `${secret}0`, 'key-0123456789abcdeF', ` ${secret}`]) expect(sameSecret(secret, guess), guess).toBe(false);
  });
});
