// The same-origin rule (docs/security.md, "Browsers"): a POST or DELETE without an API key in a
// header must come from this site, body or no body; a key in a header is no browser's.
import { describe, expect, it } from 'vitest';
import { checkSameOrigin } from './same-origin';

const request = (method: string, headers: Record<string, string>) =>
  new Request('http://app.example/api/hitl/i-1/approve', { method, headers: { host: 'app.example', ...headers } });

describe('checkSameOrigin', () => {
  it.each([
    ['POST', { origin: 'https://evil.example' }],
    ['POST', { origin: 'null' }],
    ['POST', { 'sec-fetch-site': 'cross-site' }],
    ['POST', { 'sec-fetch-site': 'Cross-Site', origin: 'http://app.example' }],
    ['DELETE', { origin: 'https://evil.example', cookie: 'stackbone_id=x' }],
    ['PUT', { origin: 'http://app.example.evil.example' }],
  ])('%s %j without a key: 403 cross_origin', (method, headers) => {
    expect(() => checkSameOrigin(request(method, headers))).toThrow(expect.objectContaining({ status: 403, code: 'cross_origin' }));
  });

  it.each([
    ['POST', {}], // a server or the CLI: no Origin, no Sec-Fetch-Site
    ['POST', { origin: 'http://app.example', 'sec-fetch-site': 'same-origin' }],
    ['POST', { origin: 'https://evil.example', authorization: 'Bearer some-key' }],
    ['DELETE', { 'sec-fetch-site': 'cross-site', 'x-api-key': 'some-key' }],
    ['GET', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ])('%s %j passes', (method, headers) => {
    expect(() => checkSameOrigin(request(method, headers))).not.toThrow();
  });
});
