// Keyed mode (STACKBONE_API_KEYS set): the browser gets a signed identity cookie and owns its
// sessions; programmatic surfaces still need a key (docs/wires.md, "Auth").
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

const PORTS = { sqlite: 3231, postgres: 3232 } as const;

async function identityCookie(url: string): Promise<string> {
  const response = await fetch(`${url}/`);
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/^stackbone_id=[^;]+\..+; Path=\/; .*HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=lax/i);
  return setCookie.split(';')[0]!;
}

describe('open dev mode', () => {
  it('gives no identity cookie: every request is the local owner', async () => {
    const [server] = backends();
    const response = await fetch(`${server!.url}/`);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

for (const { kind } of backends()) {
  describe(`browser identity with STACKBONE_API_KEYS on ${kind}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_identity');
      server = await startServer({ port: PORTS[kind], databaseUrl, env: { STACKBONE_API_KEYS: 'key-one', STACKBONE_SECRET: 'test-secret', STACKBONE_SECRET_PREVIOUS: 'old-secret' } });
    });
    afterAll(() => server?.kill());

    it('a browser with its signed cookie chats and owns its threads; another browser gets 404', async () => {
      const cookie = await identityCookie(server.url);
      const threadId = randomUUID();
      const run = await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage('look up order ord_42')] }, { cookie });
      expect(run.status).toBe(200);
      expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });

      const page = await fetch(`${server.url}/agents/support/${threadId}`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('look up order ord_42');

      const stranger = await identityCookie(server.url);
      expect(stranger).not.toBe(cookie);
      expect((await fetch(`${server.url}/agents/support/${threadId}`, { headers: { cookie: stranger } })).status).toBe(404);
      const intrusion = await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage('hi')] }, { cookie: stranger });
      expect(intrusion.status).toBe(404);
    });

    it('no key and no cookie, or a forged cookie: 401 on the AG-UI endpoint', async () => {
      const bare = await postRun(server.url, 'support', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] });
      expect(bare.status).toBe(401);
      const cookie = await identityCookie(server.url);
      const forged = cookie.replace(/^stackbone_id=[^.]+/, `stackbone_id=${randomUUID()}`);
      const tampered = await postRun(server.url, 'support', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] }, { cookie: forged });
      expect(tampered.status).toBe(401);
      // A malformed cookie (a bad %-escape) is no identity, not a server error.
      for (const cookie of ['stackbone_id=%', 'stackbone_id=%E0%A4%A']) {
        expect((await postRun(server.url, 'support', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] }, { cookie })).status, cookie).toBe(401);
      }
    });

    it('a cookie signed with the previous secret keeps its browser through a rotation, and is signed anew', async () => {
      const id = randomUUID();
      const old = `stackbone_id=${id}.${createHmac('sha256', 'old-secret').update(id).digest('base64url')}`;
      const threadId = randomUUID();
      const run = await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage('say 1 word')] }, { cookie: old });
      expect(run.status).toBe(200);
      const page = await fetch(`${server.url}/agents/support/${threadId}`, { headers: { cookie: old } });
      expect(page.status).toBe(200);
      const renewed = page.headers.get('set-cookie')!.split(';')[0]!;
      expect(renewed.startsWith(`stackbone_id=${id}.`)).toBe(true);
      expect(renewed).not.toBe(old);
      // The re-signed cookie is the same owner: it sees its thread.
      expect((await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage('say 2 words')] }, { cookie: renewed })).events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    });

    it("the app's header says keyed mode is on", async () => {
      const html = await (await fetch(`${server.url}/`)).text();
      expect(html).toContain('data-testid="keyed-marker"');
      expect(html).not.toContain('data-testid="open-dev-marker"');
    });

    it('/api/health tells a stranger only that it is up; a key holder gets the details', async () => {
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${server.url}/api/health`, { headers: { authorization: 'Bearer key-one' } })).json()).toMatchObject({ ok: true, openDevMode: false, database: kind });
    });

    it('the recovery sweep endpoint (for a cron job) needs a key too', async () => {
      expect((await fetch(`${server.url}/api/cron/recover`)).status).toBe(401);
      const swept = await fetch(`${server.url}/api/cron/recover`, { headers: { authorization: 'Bearer key-one' } });
      expect(swept.status).toBe(200);
      expect(await swept.json()).toMatchObject({ sessions: expect.any(Number), ms: expect.any(Number) });
    });

    it('the out-of-band API needs a key even with a browser cookie', async () => {
      const cookie = await identityCookie(server.url);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { authorization: 'Bearer key-one' } })).status).toBe(200);
    });

    it("Studio's reads are behind a key too; a browser's lists and draft are its own", async () => {
      const cookie = await identityCookie(server.url);
      expect((await fetch(`${server.url}/api/studio/stream`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/studio/sessions/${randomUUID()}`, { headers: { cookie } })).status).toBe(401);
      const feed = new AbortController();
      const keyed = await fetch(`${server.url}/api/studio/stream`, { headers: { authorization: 'Bearer key-one' }, signal: feed.signal });
      expect(keyed.status).toBe(200);
      feed.abort();

      const threadId = randomUUID();
      const write = (headers: Record<string, string>) => fetch(`${server.url}/api/agents/planner/state`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ threadId, state: { draft: 'mine' } }) });
      expect((await write({})).status).toBe(401);
      expect((await write({ cookie })).status).toBe(200);
      const other = await identityCookie(server.url);
      expect((await write({ cookie: other })).status).toBe(404);
      const mine = (await (await fetch(`${server.url}/api/sessions`, { headers: { cookie } })).json()) as { sessions: { id: string }[] };
      const theirs = (await (await fetch(`${server.url}/api/sessions`, { headers: { cookie: other } })).json()) as { sessions: { id: string }[] };
      expect(mine.sessions.map((session) => session.id)).toContain(threadId);
      expect(theirs.sessions.map((session) => session.id)).not.toContain(threadId);
    });
  });
}
