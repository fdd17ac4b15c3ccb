// STACKBONE_API_KEYS read in one place (docs/approvals.md, "Quorum and separation of duties"):
// bare keys as before, `name:group1+group2=key` labelled, each key's owner id the hash of its
// secret alone, and its label found from that id without keeping the key anywhere else.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { checkApiKeyStrength, configuredApiKeys, isOpenDevMode, keyLabelOf, keyOwner, parseApiKeys, publicOwnerId, withPublicOwnerIds } from './open-dev-mode';

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.STACKBONE_API_KEYS;
});
afterEach(() => {
  if (saved === undefined) delete process.env.STACKBONE_API_KEYS;
  else process.env.STACKBONE_API_KEYS = saved;
});

describe('STACKBONE_API_KEYS', () => {
  it('reads bare keys as before: the secrets, in order, blanks and spaces dropped', () => {
    expect(parseApiKeys(' key-one , ,key-two,')).toEqual([
      { key: 'key-one', groups: [] },
      { key: 'key-two', groups: [] },
    ]);
    expect(parseApiKeys('')).toEqual([]);
  });

  it('reads labels: a name, or a name and groups', () => {
    expect(parseApiKeys('alice:finance=sk-a1, bob:finance+ops=sk-b2,carol=sk-c3,sk-plain')).toEqual([
      { key: 'sk-a1', name: 'alice', groups: ['finance'] },
      { key: 'sk-b2', name: 'bob', groups: ['finance', 'ops'] },
      { key: 'sk-c3', name: 'carol', groups: [] },
      { key: 'sk-plain', groups: [] },
    ]);
  });

  it("keeps a base64 key's padding a bare key's, and splits a labelled key at its first =", () => {
    expect(parseApiKeys('c2stYWJj==,c2stYQ=')).toEqual([
      { key: 'c2stYWJj==', groups: [] },
      { key: 'c2stYQ=', groups: [] },
    ]);
    expect(parseApiKeys('dave:finance=c2stZA==')).toEqual([{ key: 'c2stZA==', name: 'dave', groups: ['finance'] }]);
  });

  it('refuses a label that does not read as written, and a name given twice', () => {
    expect(() => parseApiKeys('al ice=sk-1')).toThrow(/the entry labelled "al ice" is not "name=key"/);
    expect(() => parseApiKeys('alice:=sk-1')).toThrow(/labelled "alice:"/);
    expect(() => parseApiKeys('alice:a:b=sk-1')).toThrow(/labelled "alice:a:b"/);
    expect(() => parseApiKeys('alice:fin++ops=sk-1')).toThrow(/labelled "alice:fin\+\+ops"/);
    expect(() => parseApiKeys('alice=sk-1,alice:ops=sk-2')).toThrow(/two keys are named "alice"/);
  });

  it("keeps the secrets for configuredApiKeys, and a labelled key's owner id is its secret's, as a bare one's", () => {
    process.env.STACKBONE_API_KEYS = 'sk-a1';
    const bare = keyOwner('sk-a1');
    expect(configuredApiKeys()).toEqual(['sk-a1']);
    process.env.STACKBONE_API_KEYS = 'alice:finance=sk-a1,sk-plain';
    expect(configuredApiKeys()).toEqual(['sk-a1', 'sk-plain']);
    expect(keyOwner('sk-a1')).toBe(bare);
    expect(isOpenDevMode()).toBe(false);
  });

  it("finds a key's name and groups from its owner id, and nothing for a bare key, a removed key or another owner", () => {
    process.env.STACKBONE_API_KEYS = 'alice:finance+ops=sk-a1,sk-plain';
    expect(keyLabelOf(keyOwner('sk-a1'))).toEqual({ name: 'alice', groups: ['finance', 'ops'] });
    expect(keyLabelOf(keyOwner('sk-plain'))).toEqual({ groups: [] });
    expect(keyLabelOf('browser:b1')).toBeUndefined();
    process.env.STACKBONE_API_KEYS = 'sk-plain';
    expect(keyLabelOf(keyOwner('sk-a1'))).toBeUndefined();
  });

  it("re-keys a key's owner id for what leaves the server: no bare hash of the key, stable per secret; other owners as they are", () => {
    process.env.STACKBONE_SECRET = 's'.repeat(64);
    const stored = keyOwner('k1-0123456789abcdef');
    // What the review computed offline from a guess: the stored id is exactly that.
    expect(stored).toBe(`key:${createHash('sha256').update('k1-0123456789abcdef').digest('hex').slice(0, 24)}`);
    const shown = publicOwnerId(stored);
    expect(shown).toMatch(/^key:[\w-]{24}$/);
    expect(shown).not.toBe(stored);
    expect(publicOwnerId(stored)).toBe(shown);
    expect(publicOwnerId('browser:b1')).toBe('browser:b1');
    expect(publicOwnerId('local')).toBe('local');
    expect(withPublicOwnerIds({ ownerId: stored, decision: { by: { ownerId: stored }, votes: [{ by: { ownerId: stored } }] } })).toEqual({
      ownerId: shown,
      decision: { by: { ownerId: shown }, votes: [{ by: { ownerId: shown } }] },
    });
    process.env.STACKBONE_SECRET = 't'.repeat(64);
    expect(publicOwnerId(stored)).not.toBe(shown);
  });

  it('refuses to start with a key shorter than 24 characters, naming it by its label or place, never showing it', () => {
    process.env.STACKBONE_API_KEYS = 'alice=sk-alice-5f0c2a9e8b7d6c4f3a1e,1234';
    expect(() => checkApiKeyStrength()).toThrow(/key 2 of the list is 4 characters; a key is at least 24/);
    process.env.STACKBONE_API_KEYS = 'alice=short-alice-key';
    expect(() => checkApiKeyStrength()).toThrow(/the key named "alice" is 15 characters/);
    expect(() => checkApiKeyStrength()).not.toThrow(/short-alice-key/);
    process.env.STACKBONE_API_KEYS = 'alice=sk-alice-5f0c2a9e8b7d6c4f3a1e,sk-plain-9a8b7c6d5e4f3a2b1c0d';
    expect(() => checkApiKeyStrength()).not.toThrow();
  });
});
