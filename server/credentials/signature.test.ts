// Purpose-labelled signatures (docs/security.md, "Signed tokens"): what is signed for one purpose
// never verifies for another; a rotation's previous secrets still verify; a signature made before
// labels verifies only until the end of the migration window.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sign, signedWith, signedWithoutLabel, UNLABELLED_SIGNATURES_UNTIL } from './signature';

const SECRET = 'current-secret-0123456789abcdef0123456789';
const OLD = 'old-secret';
const hmac = (input: string, secret: string) => createHmac('sha256', secret).update(input).digest('base64url');

describe('a purpose-labelled signature', () => {
  it('is the HMAC of the purpose label and the payload', () => {
    expect(sign('link', 'payload', SECRET)).toBe(hmac('stackbone link v1\npayload', SECRET));
    expect(sign('identity', 'payload', SECRET)).toBe(hmac('stackbone identity v1\npayload', SECRET));
  });

  it('made for one purpose never verifies for another, nor as the bare payload', () => {
    const payload = '0b3c7a52-3f4e-4d7a-9c1e-5a6b7c8d9e0f.1764950400';
    const link = sign('link', payload, SECRET);
    const identity = sign('identity', payload, SECRET);
    expect(link).not.toBe(identity);
    expect(signedWith('link', payload, link, [SECRET])).toBe(0);
    expect(signedWith('identity', payload, link, [SECRET])).toBe(-1);
    expect(signedWith('identity', payload, identity, [SECRET])).toBe(0);
    expect(signedWith('link', payload, identity, [SECRET])).toBe(-1);
    const before = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() - 1000);
    expect(signedWithoutLabel(payload, link, [SECRET], before)).toBe(-1);
    expect(signedWithoutLabel(payload, identity, [SECRET], before)).toBe(-1);
  });

  it('verifies under a previous secret during a rotation, saying which; under another secret it is none', () => {
    const old = sign('identity', 'p', OLD);
    expect(signedWith('identity', 'p', old, [SECRET, 'older', OLD])).toBe(2);
    expect(signedWith('identity', 'p', old, [SECRET])).toBe(-1);
    expect(signedWith('identity', 'p', old, [])).toBe(-1);
    // A changed character, a truncated or a longer signature is none.
    const flipped = old.slice(0, -1) + (old.endsWith('A') ? 'B' : 'A');
    for (const given of [flipped, old.slice(0, -1), `${old}A`, '']) expect(signedWith('identity', 'p', given, [OLD]), given).toBe(-1);
  });
});

describe('a signature made before purpose labels', () => {
  const unlabelled = hmac('payload', OLD);
  it('verifies under the current or a previous secret until the window ends, then never', () => {
    const inWindow = new Date(UNLABELLED_SIGNATURES_UNTIL.getTime() - 1000);
    expect(signedWithoutLabel('payload', unlabelled, [SECRET, OLD], inWindow)).toBe(1);
    expect(signedWithoutLabel('other', unlabelled, [SECRET, OLD], inWindow)).toBe(-1);
    expect(signedWithoutLabel('payload', unlabelled, [SECRET], inWindow)).toBe(-1);
    expect(signedWithoutLabel('payload', unlabelled, [SECRET, OLD], UNLABELLED_SIGNATURES_UNTIL)).toBe(-1);
    // A labelled check never takes it.
    expect(signedWith('identity', 'payload', unlabelled, [OLD])).toBe(-1);
    expect(signedWith('link', 'payload', unlabelled, [OLD])).toBe(-1);
  });

  it('has a window that ends on the date docs/security.md gives', () => {
    const docs = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    expect(docs).toContain(`until ${UNLABELLED_SIGNATURES_UNTIL.toISOString().slice(0, 10)} (UTC)`);
  });
});
