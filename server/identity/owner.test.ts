// Who a request is (docs/security.md, "Modes"): a key in a header, a key exchanged for the app's
// cookie (valid while that key is configured), or a browser's own identity — the last only
// where STACKBONE_WEB_ACCESS=open (a misspelled mode stops the start: server/config/config.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sign } from '../credentials/signature';
import { keyOwner } from './api-keys';
import { resolveCaller } from './owner';

const NAMES = ['STACKBONE_SECRET', 'STACKBONE_API_KEYS', 'STACKBONE_WEB_ACCESS'] as const;
const SECRET = 'test-secret-0123456789abcdef0123456789';
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  process.env.STACKBONE_SECRET = SECRET;
  process.env.STACKBONE_API_KEYS = 'key-one,key-two';
  delete process.env.STACKBONE_WEB_ACCESS;
});
afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** A cookie as the server signs it: `<id>.<issued at>.<HMAC of both, labelled as an identity's>` (browser-identity.ts). */
const cookieOf = (id: string) => {
  const payload = `${id}.${Math.floor(Date.now() / 1000)}`;
  return `stackbone_id=${payload}.${sign('identity', payload, SECRET)}`;
};
const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers });

describe('resolveCaller', () => {
  it('a key in a header is that key, on every surface', async () => {
    expect(await resolveCaller(request({ authorization: 'Bearer key-two' }))).toEqual({ ownerId: keyOwner('key-two'), credential: 'key', via: 'header' });
    await expect(resolveCaller(request({ 'x-api-key': 'nope' }))).rejects.toThrow(/not valid/);
  });

  it("a key's cookie acts as the key on the app's and the key holders' surfaces, until the key is removed", async () => {
    const cookie = cookieOf(keyOwner('key-one'));
    expect(await resolveCaller(request({ cookie }), { browser: true })).toEqual({ ownerId: keyOwner('key-one'), credential: 'key', via: 'cookie' });
    expect((await resolveCaller(request({ cookie }), { keyCookie: true })).credential).toBe('key');
    await expect(resolveCaller(request({ cookie }))).rejects.toThrow(/API key is required/); // the programmatic wires read no cookie
    process.env.STACKBONE_API_KEYS = 'key-two';
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/API key is required/);
  });

  it("a browser's own identity cookie, from before guests were Better Auth's, is no caller: its next page makes it a guest (proxy.ts)", async () => {
    const cookie = cookieOf('0b7c5a9e-1111-4222-8333-944445555666');
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/sign in with a key/);
    process.env.STACKBONE_WEB_ACCESS = 'open';
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/no guest yet: load a page of the app first/);
    await expect(resolveCaller(request({ cookie }), { keyCookie: true })).rejects.toThrow(/API key is required/);
  });

  it('open dev mode: everyone is the local owner', async () => {
    delete process.env.STACKBONE_API_KEYS;
    expect(await resolveCaller(request({}))).toEqual({ ownerId: 'local', credential: 'local' });
  });
});
