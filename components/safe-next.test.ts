// Where the sign-in page sends a browser once it has signed in: only a path of this site. What a
// browser does with the value decides (it drops tabs and newlines, reads `\` as `/`), so every
// hostile form below must come back as '/'.
import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

const ORIGIN = 'https://app.example';

describe('safeNext', () => {
  it.each([
    ['/\t/evil.example', '/%09/evil.example decoded: a browser drops the tab and reads //evil.example'],
    ['/\n/evil.example', 'a newline, dropped the same way'],
    ['/\r\n/evil.example', 'CR LF'],
    ['//evil.example', 'a scheme-relative URL'],
    ['//evil.example/path?x=1', 'a scheme-relative URL with a path'],
    ['/\\evil.example', 'a backslash, read as a slash'],
    ['/\\/evil.example', 'slash, backslash, slash'],
    ['\\\\evil.example', 'two backslashes'],
    ['https://evil.example', 'another site'],
    ['https://app.example.evil.example/', 'a look-alike host'],
    ['javascript:alert(1)', 'a script URL'],
    ['JavaScript:alert(1)', 'a script URL in mixed case'],
    ['data:text/html,<script>alert(1)</script>', 'a data URL'],
    [' /x', 'a leading space'],
    ['\t/x', 'a leading tab'],
    ['x', 'a relative path'],
    ['', 'nothing'],
  ])('%j (%s) goes home', (next) => {
    expect(safeNext(next, ORIGIN)).toBe('/');
  });

  it.each(['/a/..//evil.example', '/.//evil.example', '/./\\evil.example', '/%2e%2e//evil.example'])(
    '%j, with dot segments, stays on this site however a browser resolves it',
    (next) => {
      const target = safeNext(next, ORIGIN);
      expect(new URL(target, ORIGIN).origin).toBe(ORIGIN);
      expect(new URL(target, 'https://other.example').origin).toBe('https://other.example'); // a path, never a host
    },
  );

  it.each([
    ['/', '/'],
    ['/studio', '/studio'],
    ['/ok?x=1#y', '/ok?x=1#y'],
    ['/agents/helpdesk/abc-123', '/agents/helpdesk/abc-123'],
    ['/%09/evil.example', '/%09/evil.example'], // still encoded: a path of this site
  ])('%j is a path of this site: %j', (next, expected) => {
    expect(safeNext(next, ORIGIN)).toBe(expected);
  });

  it('refuses what is not a string (a repeated ?next=)', () => {
    expect(safeNext(['/a', '/b'], ORIGIN)).toBe('/');
    expect(safeNext(undefined, ORIGIN)).toBe('/');
  });

  it("the server, without the browser's origin, applies the same rule", () => {
    expect(safeNext('/\t/evil.example')).toBe('/');
    expect(safeNext('/ok?x=1#y')).toBe('/ok?x=1#y');
  });
});
