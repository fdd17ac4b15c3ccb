// The bench's baseline route (bench/bare-route.ts) is in every build but never served by the
// product: without STACKBONE_BENCH=1, which only `npm run bench` sets, it answers 404. With it,
// a keyed server serves it only to a key, and only that key's sessions (docs/security.md).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

const stream = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/bench/bare`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ prompt: 'reply with 5 tokens' }) });

for (const backend of backends()) {
  describe(`the bench route on ${backend.kind}`, () => {
    it('is not served without STACKBONE_BENCH', async () => {
      expect((await stream(backend.url)).status).toBe(404);
      const read = await fetch(`${backend.url}/api/bench/bare?threadId=anything`);
      expect(read.status).toBe(404);
    });
  });
}

describe('the bench route on a keyed server with STACKBONE_BENCH=1', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ port: 3265, databaseUrl: await freshSqliteUrl(), env: { STACKBONE_BENCH: '1', STACKBONE_API_KEYS: 'key-one,key-two', STACKBONE_SECRET: 'bench-secret-0123456789abcdef0123456789' } });
  });
  afterAll(() => server?.kill());

  it('needs an API key, and reads only that key\'s sessions', async () => {
    expect((await stream(server.url)).status).toBe(401);
    const served = await stream(server.url, { authorization: 'Bearer key-one' });
    expect(served.status).toBe(200);
    expect((await served.text()).length).toBeGreaterThan(0);

    const threadId = randomUUID();
    const run = await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage('reply with 2 tokens')] }, { authorization: 'Bearer key-one' });
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const read = (headers: Record<string, string>) => fetch(`${server.url}/api/bench/bare?threadId=${threadId}`, { headers });
    expect((await read({})).status).toBe(401);
    const own = await read({ authorization: 'Bearer key-one' });
    expect(own.status).toBe(200);
    expect(((await own.json()) as unknown[]).length).toBeGreaterThan(0);
    // Key two's thread by that id is its own, and it has none: no rows, as for an id nobody used.
    const other = await read({ authorization: 'Bearer key-two' });
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual([]);
  });
});
