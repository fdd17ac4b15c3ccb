// Open dev mode's reach (docs/security.md, "Modes"): loopback hosts only, unless
// STACKBONE_ALLOW_OPEN_ACCESS=1; and no production start without keys unless the same opt-in.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOpenAccess, isLoopbackHost, openDevModeRefusal } from './open-access';

const NAMES = ['STACKBONE_API_KEYS', 'STACKBONE_ALLOW_OPEN_ACCESS', 'NODE_ENV'] as const;
// NODE_ENV is typed read-only; the start-up rule reads it like any other variable.
const env = process.env as Record<string, string | undefined>;
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((name) => [name, env[name]]));
  delete process.env.STACKBONE_API_KEYS;
  delete process.env.STACKBONE_ALLOW_OPEN_ACCESS;
});
afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete env[name];
    else env[name] = saved[name];
  }
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'localhost:3000',
    'LOCALHOST:3000',
    'app.localhost',
    'a.b.localhost:8080',
    '127.0.0.1',
    '127.0.0.1:3000',
    '127.8.9.10:1',
    '127.1:3000',
    '[::1]',
    '[::1]:3000',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '192.168.1.5:3000',
    '10.0.0.2',
    '0.0.0.0:3000',
    'evil.example',
    'evil.example:3000',
    'localhost.evil.example',
    '127.0.0.1.evil.example',
    'evil@localhost',
    'localhost/x',
    'local host',
    '[::ffff:7f00:1]',
    '[::]:3000',
    '128.0.0.1',
    '',
    null,
    undefined,
  ])('%j is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('openDevModeRefusal', () => {
  const request = (host: string) => new Request('http://localhost/api/hitl', { headers: { host } });

  it('in open dev mode, a request to another host is 403 open_dev_mode_remote, saying what to set', () => {
    const refusal = openDevModeRefusal(request('192.168.1.5:3000'));
    expect(refusal).toMatchObject({ status: 403, code: 'open_dev_mode_remote' });
    expect(refusal?.message).toMatch(/STACKBONE_API_KEYS.*STACKBONE_ALLOW_OPEN_ACCESS=1/);
    expect(openDevModeRefusal(request('evil.example'))).toBeDefined();
    expect(openDevModeRefusal(request('localhost:3000'))).toBeUndefined();
  });

  it('keys, or STACKBONE_ALLOW_OPEN_ACCESS=1, lift it', () => {
    process.env.STACKBONE_API_KEYS = 'key-one';
    expect(openDevModeRefusal(request('192.168.1.5:3000'))).toBeUndefined();
    delete process.env.STACKBONE_API_KEYS;
    process.env.STACKBONE_ALLOW_OPEN_ACCESS = '1';
    expect(openDevModeRefusal(request('evil.example'))).toBeUndefined();
    process.env.STACKBONE_ALLOW_OPEN_ACCESS = 'yes'; // only 1 opts in
    expect(openDevModeRefusal(request('evil.example'))).toBeDefined();
  });
});

describe('checkOpenAccess', () => {
  it('a production server without keys does not start unless STACKBONE_ALLOW_OPEN_ACCESS=1', () => {
    env.NODE_ENV = 'production';
    expect(() => checkOpenAccess()).toThrow(/STACKBONE_API_KEYS is not set.*STACKBONE_ALLOW_OPEN_ACCESS=1/);
    process.env.STACKBONE_ALLOW_OPEN_ACCESS = '1';
    expect(() => checkOpenAccess()).not.toThrow();
    delete process.env.STACKBONE_ALLOW_OPEN_ACCESS;
    process.env.STACKBONE_API_KEYS = 'key-one';
    expect(() => checkOpenAccess()).not.toThrow();
    delete process.env.STACKBONE_API_KEYS;
    env.NODE_ENV = 'development';
    expect(() => checkOpenAccess()).not.toThrow();
  });
});
