// Who a request is (docs/security.md, "Modes"): a service key in a header, and only there — a
// cookie that once carried a key (from when keys were exchanged for the app's cookie) or a
// browser's own identity acts as nobody (a misspelled mode stops the start: server/config/config.test.ts).
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

/** An identity cookie as the server signed them: `<id>.<issued at>.<HMAC of both, labelled as an identity's>` (server/auth/legacy-browser-cookie.ts). */
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

  it("a key's cookie, from when keys were exchanged for one, acts as nobody on any surface: a key comes in a header", async () => {
    const cookie = cookieOf(keyOwner('key-one'));
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/Sign in first/);
    await expect(resolveCaller(request({ cookie }), { member: true })).rejects.toThrow(/Sign in first/);
    await expect(resolveCaller(request({ cookie }))).rejects.toThrow(/API key is required/);
    expect((await resolveCaller(request({ cookie, 'x-api-key': 'key-one' }), { member: true })).ownerId).toBe(keyOwner('key-one'));
  });

  it("a browser's own identity cookie, from before guests were Better Auth's, is no caller: its next page makes it a guest (proxy.ts)", async () => {
    const cookie = cookieOf('0b7c5a9e-1111-4222-8333-944445555666');
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/Sign in first/);
    process.env.STACKBONE_WEB_ACCESS = 'open';
    await expect(resolveCaller(request({ cookie }), { browser: true })).rejects.toThrow(/no guest yet: load a page of the app first/);
    await expect(resolveCaller(request({ cookie }), { member: true })).rejects.toThrow(/Sign in first/);
  });

  it('open dev mode: everyone is the local owner', async () => {
    delete process.env.STACKBONE_API_KEYS;
    expect(await resolveCaller(request({}))).toEqual({ ownerId: 'local', credential: 'local' });
  });
});
