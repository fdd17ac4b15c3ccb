// The bench's baseline route (app/api/bench/bare/route.bench.ts) is only in the bench's own build
// (next.config.ts, docs/internals/benchmarks.md; tests/integration/bench-route.test.ts checks that a product
// build has none), so its handlers are driven here in process, on a migrated SQLite file. Even in
// the bench's build it is 404 without STACKBONE_BENCH=1; with it and keys configured, it needs a
// key, and a key reads only its own threads (docs/security.md).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET, POST } from '../../app/api/bench/bare/route.bench';
import type { SessionEvent } from '../../server/store/events';
import { keyOwner } from '../../server/identity/api-keys';
import { scopedSessionId } from '../../server/runtime';
import { sqliteFilePath } from '../../server/store/database-url';
import { createPrismaStore } from '../../server/store/prisma-store';
import type { StoreClient } from '../../server/store/prisma-client';
import { freshSqliteUrl } from '../support/database';

const ROUTE = 'http://127.0.0.1:3000/api/bench/bare';
const stream = (headers: Record<string, string> = {}) =>
  POST(
    new Request(ROUTE, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ prompt: 'reply with 5 tokens' }),
    }),
  );
const read = (threadId: string, headers: Record<string, string> = {}) => GET(new Request(`${ROUTE}?threadId=${threadId}`, { headers }));

let url: string;
beforeAll(async () => {
  url = await freshSqliteUrl();
}, 60_000);
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  // The route keeps a client of its own per process (bench/bare-route.ts).
  const cache = globalThis as typeof globalThis & { __stackboneBenchClient?: Promise<StoreClient> };
  await (await cache.__stackboneBenchClient?.catch(() => undefined))?.$disconnect();
  if (url) await rm(path.dirname(sqliteFilePath(url)), { recursive: true, force: true });
});

describe('the bench route', () => {
  it('is not served without STACKBONE_BENCH=1, even in the bench build', async () => {
    vi.stubEnv('STACKBONE_BENCH', '');
    vi.stubEnv('STACKBONE_API_KEYS', 'key-one-0123456789abcdef');
    expect((await stream({ authorization: 'Bearer key-one-0123456789abcdef' })).status).toBe(404);
    expect((await read('anything', { authorization: 'Bearer key-one-0123456789abcdef' })).status).toBe(404);
  });

  it("with STACKBONE_BENCH=1 on a keyed server: needs an API key, and reads only that key's sessions", async () => {
    vi.stubEnv('STACKBONE_BENCH', '1');
    vi.stubEnv('STACKBONE_API_KEYS', 'key-one-0123456789abcdef,key-two-0123456789abcdef');
    vi.stubEnv('DATABASE_URL', url);
    expect((await stream()).status).toBe(401);
    const served = await stream({ authorization: 'Bearer key-one-0123456789abcdef' });
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('token1 token2 token3 token4 token5');

    // Key one's thread, as a turn leaves it: stored under its owner (server/runtime/session/session-id.ts).
    const threadId = randomUUID();
    const events: SessionEvent[] = [
      { type: 'run_started', runId: 'r1', source: 'agui' },
      { type: 'message_added', message: { id: 'm1', role: 'user', content: 'hello' } },
    ];
    const store = createPrismaStore(url);
    try {
      await store.append(scopedSessionId(keyOwner('key-one-0123456789abcdef'), threadId), 0, events, {
        create: { ownerId: keyOwner('key-one-0123456789abcdef'), agent: 'helpdesk' },
      });
    } finally {
      await store.close();
    }

    expect((await read(threadId)).status).toBe(401);
    const own = await read(threadId, { authorization: 'Bearer key-one-0123456789abcdef' });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { seq: number }[]).map((row) => row.seq)).toEqual([1, 2]);
    // Key two's thread by that id is its own, and it has none: no rows, as for an id nobody used.
    const other = await read(threadId, { authorization: 'Bearer key-two-0123456789abcdef' });
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual([]);
  });
});
