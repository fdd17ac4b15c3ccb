// Keyed mode (STACKBONE_API_KEYS set), docs/security.md: with STACKBONE_WEB_ACCESS=open a browser
// is made a guest on its first page (Better Auth's anonymous user) and owns its sessions, but
// cannot approve what is kept for key holders; a browser that had its own identity cookie before
// guests were Better Auth's keeps its id, and so its threads. With `key` (the default) the app is
// its team's, who sign in to their accounts; a service key is sent in a header, never exchanged
// for a cookie (docs/users-and-roles.md).
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFinishedEvent } from '@ag-ui/core';
import { attachmentMessage, postRun, TINY_PNG, uploadAttachment, userMessage } from '../support/agui';
import { eventually, readSessionEvents } from '../support/inspect';
import { UNLABELLED_SIGNATURES_UNTIL } from '../../server/credentials/signature';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { firstPage } from '../support/guest';
import { signUp } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

const PORTS = { sqlite: 3231, postgres: 3232 } as const;
const KEY_ACCESS_PORTS = { sqlite: 3235, postgres: 3236 } as const;
/** The operator who runs the desk: an admin, who decides what is kept for key holders (docs/users-and-roles.md, "Roles"). */
const DESK = 'desk@example.test';
/** STACKBONE_SECRET of these servers: 32 bytes or more, as the server requires (docs/security.md). */
const SECRET = 'test-secret-0123456789abcdef0123456789';

/** A cookie value signed as the server signs one: `<id>.<issued at, s>.<HMAC of both, labelled as an identity's>`. */
function signedCookie(id: string, issuedAt: number, secret = SECRET): string {
  const payload = `${id}.${issuedAt}`;
  return `stackbone_id=${payload}.${createHmac('sha256', secret).update(`stackbone identity v1\n${payload}`).digest('base64url')}`;
}

/** The same, signed as cookies were before signatures carried their purpose (docs/security.md, "Signed tokens"). */
function unlabelledCookie(id: string, issuedAt: number, secret = SECRET): string {
  const payload = `${id}.${issuedAt}`;
  return `stackbone_id=${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

const keyOwnerId = (key: string) => `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new guest's cookie: one page load sets Better Auth's session cookie, httpOnly and same-site, and that page knows its guest. */
async function identityCookie(url: string): Promise<string> {
  const { response, guest, text } = await firstPage(url);
  expect(response.status).toBe(200);
  // The header offers the guest to sign up (components/account-menu.tsx), from the very first page.
  expect(text).toContain('data-testid="sign-up-link"');
  const setCookie = response.headers.getSetCookie().find((line) => line.includes('better-auth.session_token=')) ?? '';
  expect(setCookie).toMatch(/; Path=\/; .*HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=lax/i);
  return guest!.cookie;
}

describe('open dev mode', () => {
  it('gives no identity cookie: every request is the local owner', async () => {
    const [server] = backends();
    const response = await fetch(`${server!.url}/`);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('STACKBONE_SECRET', () => {
  it('a keyed server with one shorter than 32 bytes does not start, and says how to make one', async () => {
    let refusal: unknown;
    try {
      const started = await startServer({
        port: 3237,
        databaseUrl: await freshSqliteUrl(),
        env: { STACKBONE_API_KEYS: 'key-one-0123456789abcdef', STACKBONE_SECRET: 'test-secret' },
      });
      await started.kill();
    } catch (error) {
      refusal = error;
    }
    expect(String(refusal)).toMatch(/exited early.*STACKBONE_SECRET is 11 bytes; it must be at least 32.*openssl rand -hex 32/s);
  });
});

for (const { kind } of backends()) {
  describe(`browser identity with STACKBONE_API_KEYS and STACKBONE_WEB_ACCESS=open on ${kind}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_identity');
      server = await startServer({
        port: PORTS[kind],
        databaseUrl,
        env: {
          STACKBONE_API_KEYS: 'key-one-0123456789abcdef',
          STACKBONE_SECRET: SECRET,
          STACKBONE_SECRET_PREVIOUS: 'old-secret',
          STACKBONE_WEB_ACCESS: 'open',
          STACKBONE_ADMIN_EMAILS: DESK,
        },
      });
    });
    afterAll(() => server?.kill());

    it('a browser with its signed cookie chats and owns its threads; another browser with the same thread id sees, and touches, nothing of it', async () => {
      const cookie = await identityCookie(server.url);
      const threadId = randomUUID();
      const marker = `mine-${randomUUID()}`;
      const run = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(`hello ${marker}`)] }, { cookie });
      expect(run.status).toBe(200);
      expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });

      const page = await fetch(`${server.url}/agents/helpdesk/${threadId}`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(marker);

      const stranger = await identityCookie(server.url);
      expect(stranger).not.toBe(cookie);
      // The stranger's page is a new, empty chat — the same as for an id nobody used.
      const theirs = await fetch(`${server.url}/agents/helpdesk/${threadId}`, { headers: { cookie: stranger } });
      const unused = await fetch(`${server.url}/agents/helpdesk/${randomUUID()}`, { headers: { cookie: stranger } });
      expect([theirs.status, unused.status]).toEqual([200, 200]);
      expect(await theirs.text()).not.toContain(marker);
      // A run there is the stranger's own thread: it shows nothing of the first browser's, and leaves it as it was.
      const intrusion = await postRun(
        server.url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [userMessage('reply with 2 tokens')] },
        { cookie: stranger },
      );
      expect(intrusion.status).toBe(200);
      expect(JSON.stringify(intrusion.events)).not.toContain(marker);
      const mine = await (await fetch(`${server.url}/agents/helpdesk/${threadId}`, { headers: { cookie } })).text();
      expect(mine).toContain(marker);
      expect(mine).not.toContain('reply with 2 tokens');
    });

    it("a browser's attachment is its own: it reaches the model, another browser can neither read it nor send it, and a wrong file says what is wrong", async () => {
      const cookie = await identityCookie(server.url);
      const upload = await uploadAttachment(server.url, 'helpdesk', TINY_PNG, 'photo.png', { cookie });
      expect(upload.status).toBe(201);
      expect(upload.body).toMatchObject({
        mediaType: 'image/png',
        filename: 'photo.png',
        size: TINY_PNG.byteLength,
        url: expect.stringMatching(/^\/api\/agents\/helpdesk\/attachments\/att_/),
      });
      const file = await fetch(`${server.url}${upload.body.url}`, { headers: { cookie } });
      expect(file.status).toBe(200);
      expect([file.headers.get('content-type'), file.headers.get('x-content-type-options')]).toEqual(['image/png', 'nosniff']);
      expect(file.headers.get('content-disposition')).toContain('filename="photo.png"');
      expect(Buffer.from(await file.arrayBuffer())).toEqual(TINY_PNG);

      // The scripted model says what it was sent: the file, with its bytes.
      const threadId = randomUUID();
      const run = await postRun(
        server.url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [attachmentMessage('What is this?', [upload.body])] },
        { cookie },
      );
      const reply = run.events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' && 'delta' in event ? [String(event.delta)] : [])).join('');
      expect(reply).toBe('I got photo.png (an image, 70 B). You said: "What is this?".');
      // The log keeps the reference, not the bytes.
      const added = (await readSessionEvents(server.databaseUrl, threadId)).find((event) => event.type === 'message_added') as { message: unknown };
      expect(added.message).toMatchObject({ content: 'What is this?', attachments: [{ id: upload.body.id, mediaType: 'image/png', size: 70 }] });
      expect(JSON.stringify(added)).not.toContain(TINY_PNG.toString('base64'));
      // A reader of the thread gets the file back as the content part it was sent as.
      const hydrated = await fetch(`${server.url}/api/agents/helpdesk?threadId=${threadId}`, { headers: { cookie, accept: 'application/json' } });
      expect(hydrated.status).toBe(200);
      expect(((await hydrated.json()) as { messages: { parts: unknown[] }[] }).messages[0]!.parts).toEqual([
        { type: 'text', text: 'What is this?' },
        {
          type: 'image',
          source: { type: 'url', value: upload.body.url, mimeType: 'image/png' },
          metadata: { filename: 'photo.png', size: 70, attachmentId: upload.body.id },
        },
      ]);

      const stranger = await identityCookie(server.url);
      expect((await fetch(`${server.url}${upload.body.url}`, { headers: { cookie: stranger } })).status).toBe(404);
      const stolen = await postRun(
        server.url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [attachmentMessage('mine now', [upload.body])] },
        { cookie: stranger },
      );
      expect(stolen.status).toBe(404);
      expect(JSON.parse(stolen.text).error).toMatchObject({ code: 'not_found', what: 'attachment' });
      // A URL of anywhere else is never fetched: refused the same way.
      const elsewhere = await postRun(
        server.url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [attachmentMessage('look', [{ ...upload.body, url: 'https://example.com/photo.png' }])] },
        { cookie },
      );
      expect(elsewhere.status).toBe(404);

      const heic = await uploadAttachment(server.url, 'helpdesk', Buffer.from('\x00\x00\x00\x18ftypheic', 'latin1'), 'photo.heic', { cookie });
      expect([heic.status, heic.body.error]).toEqual([415, { code: 'attachment_type', message: 'photo.heic: only PNG, JPEG, GIF, WebP images and PDFs.' }]);
      const huge = Buffer.alloc(5 * 1024 * 1024 + 1);
      TINY_PNG.copy(huge);
      const tooLarge = await uploadAttachment(server.url, 'helpdesk', huge, 'huge.png', { cookie });
      expect([tooLarge.status, tooLarge.body.error]).toEqual([413, { code: 'attachment_too_large', message: 'huge.png is over the 5 MB an image may be.' }]);
    });

    it('no key and no cookie, or a forged cookie: 401 on the AG-UI endpoint', async () => {
      const bare = await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] });
      expect(bare.status).toBe(401);
      const cookie = await identityCookie(server.url);
      const forged = cookie.replace(/session_token=[^.]+/, `session_token=${randomUUID()}`);
      expect(forged).not.toBe(cookie);
      const tampered = await postRun(
        server.url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] },
        { cookie: forged },
      );
      expect(tampered.status).toBe(401);
      // A malformed cookie (a bad %-escape) is no identity, not a server error.
      for (const cookie of ['stackbone_id=%', 'stackbone_id=%E0%A4%A', 'better-auth.session_token=%', 'better-auth.session_token=a.b']) {
        expect(
          (await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] }, { cookie })).status,
          cookie,
        ).toBe(401);
      }
    });

    it("a browser's own cookie from before guests were Better Auth's is no caller, and its next page makes it a guest with the same id: its threads stay its own", async () => {
      const cookies = [
        ['current secret', signedCookie(randomUUID(), nowSeconds() - 3600)],
        // STACKBONE_SECRET_PREVIOUS may be shorter than 32 bytes: a legacy secret being rotated away.
        ['previous secret', signedCookie(randomUUID(), nowSeconds() - 3600, 'old-secret')],
        // Until the migration window ends (the unit tests cover its end: server/auth/legacy-browser-cookie.test.ts).
        ...(Date.now() < UNLABELLED_SIGNATURES_UNTIL.getTime()
          ? [['signed before purpose labels', unlabelledCookie(randomUUID(), nowSeconds() - 86_400)]]
          : []),
      ];
      for (const [how, old] of cookies) {
        const id = old!.slice('stackbone_id='.length).split('.')[0]!;
        const hi = await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] }, { cookie: old! });
        expect(hi.status, how).toBe(401);
        expect(hi.text, how).toContain('load a page of the app');
        const page = await firstPage(server.url, { cookie: old! });
        expect(page.status, how).toBe(200);
        expect(page.guest?.ownerId, how).toBe(`browser:${id}`);
        const threadId = randomUUID();
        expect(
          (await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('say 1 word')] }, { cookie: page.guest!.cookie }))
            .status,
          how,
        ).toBe(200);
        expect((await readSessionEvents(server.databaseUrl, threadId)).length, how).toBeGreaterThan(0);
        // A second guest from the same old cookie (another tab that kept it) starts afresh: an owner id is one person's.
        const again = await firstPage(server.url, { cookie: old! });
        expect(again.guest?.ownerId, how).toMatch(/^browser:/);
        expect(again.guest?.ownerId, how).not.toBe(`browser:${id}`);
      }
    });

    it("a browser's cookie without an issue time, or older than its max age (a year), is no identity: its page makes a new guest", async () => {
      const id = randomUUID();
      const noIssueTime = `stackbone_id=${id}.${createHmac('sha256', SECRET).update(id).digest('base64url')}`;
      const expired = signedCookie(id, nowSeconds() - 366 * 86_400);
      for (const cookie of [noIssueTime, expired]) {
        const page = await firstPage(server.url, { cookie });
        expect(page.status).toBe(200);
        expect(page.guest?.ownerId).toMatch(/^browser:[0-9a-f-]{36}$/);
        expect(page.guest?.ownerId).not.toBe(`browser:${id}`);
      }
      // Still within its year: the guest keeps it.
      const fresh = signedCookie(id, nowSeconds() - 364 * 86_400);
      expect((await firstPage(server.url, { cookie: fresh })).guest?.ownerId).toBe(`browser:${id}`);
    });

    it("a cross-site POST with an operator's session cookie decides nothing, with or without a body; a key in a header may send none", async () => {
      const desk = await signUp(server.url, DESK);
      expect(desk.status).toBe(200);
      const cookie = desk.cookie;
      const guest = await identityCookie(server.url);
      const pause = async () => {
        const threadId = randomUUID();
        const run = await postRun(
          server.url,
          'helpdesk',
          { threadId, runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] },
          { cookie: guest },
        );
        const outcome = (run.events.at(-1) as RunFinishedEvent).outcome;
        if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
        return { threadId, interruptId: outcome.interrupts[0]!.id };
      };
      const key = { authorization: 'Bearer key-one-0123456789abcdef' };
      const pending = async () =>
        ((await (await fetch(`${server.url}/api/hitl`, { headers: key })).json()) as { interrupts: { id: string }[] }).interrupts.map((entry) => entry.id);
      const approve = (interruptId: string, headers: Record<string, string>) =>
        fetch(`${server.url}/api/hitl/${interruptId}/approve`, { method: 'POST', headers });

      const first = await pause();
      const logged = (await readSessionEvents(server.databaseUrl, first.threadId)).length;
      // No body and no content-type: what another site's page can send without asking the browser first.
      const crossSite: Record<string, string>[] = [
        { cookie, origin: 'https://evil.example' },
        { cookie, 'sec-fetch-site': 'cross-site' },
        { cookie, origin: 'null' },
      ];
      for (const headers of crossSite) {
        const refused = await approve(first.interruptId, headers);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
        expect((await refused.json()).error.code).toBe('cross_origin');
      }
      // The same with a body, and on the browser's other endpoints.
      const withBody = await fetch(`${server.url}/api/hitl/${first.interruptId}/approve`, {
        method: 'POST',
        headers: { cookie, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(withBody.status).toBe(403);
      const stop = await fetch(`${server.url}/api/agents/helpdesk/stop`, { method: 'POST', headers: { cookie, 'sec-fetch-site': 'cross-site' } });
      expect(stop.status).toBe(403);
      expect(await pending()).toContain(first.interruptId);
      expect((await readSessionEvents(server.databaseUrl, first.threadId)).length).toBe(logged);

      // The CLI approves with a key in a header and no body; the operator, from the app's own origin, may too.
      const byKey = await approve(first.interruptId, key);
      expect(byKey.status).toBe(200);
      expect((await byKey.json()).decision.by).toMatchObject({ source: 'hitl', credential: 'key' });
      const second = await pause();
      const sameOrigin = await approve(second.interruptId, { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' });
      expect(sameOrigin.status).toBe(200);
      expect((await sameOrigin.json()).decision.by).toMatchObject({ source: 'studio', credential: 'user' });
    });

    it("the app's header says keyed mode is on", async () => {
      const html = await (await fetch(`${server.url}/`)).text();
      expect(html).toContain('data-testid="keyed-marker"');
      expect(html).not.toContain('data-testid="open-dev-marker"');
    });

    it('/api/health tells a stranger only that it is up; a key holder gets the details', async () => {
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${server.url}/api/health`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } })).json()).toMatchObject({
        ok: true,
        openDevMode: false,
        database: kind,
      });
    });

    it('the recovery sweep endpoint (for a cron job) needs a key too', async () => {
      expect((await fetch(`${server.url}/api/cron/recover`)).status).toBe(401);
      const swept = await fetch(`${server.url}/api/cron/recover`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } });
      expect(swept.status).toBe(200);
      expect(await swept.json()).toMatchObject({ sessions: expect.any(Number), ms: expect.any(Number) });
    });

    it('the out-of-band API needs a key even with a browser cookie', async () => {
      const cookie = await identityCookie(server.url);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } })).status).toBe(200);
    });

    it("Studio's reads are behind a key too; a browser's lists and draft are its own", async () => {
      const cookie = await identityCookie(server.url);
      expect((await fetch(`${server.url}/api/studio/stream`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/studio/sessions/${randomUUID()}`, { headers: { cookie } })).status).toBe(401);
      const feed = new AbortController();
      const keyed = await fetch(`${server.url}/api/studio/stream`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' }, signal: feed.signal });
      expect(keyed.status).toBe(200);
      feed.abort();

      const threadId = randomUUID();
      const write = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/agents/taskboard/state`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ threadId, state: { draft: 'mine' } }),
        });
      expect((await write({})).status).toBe(401);
      expect((await write({ cookie })).status).toBe(200);
      const other = await identityCookie(server.url);
      // The other browser's write goes to a thread of its own by that id, not to this one.
      const theirWrite = await write({ cookie: other });
      expect(theirWrite.status).toBe(200);
      const read = async (headers: Record<string, string>) =>
        ((await (await fetch(`${server.url}/api/agents/taskboard?threadId=${threadId}`, { headers })).json()) as { state: { draft: string } }).state.draft;
      await (
        await fetch(`${server.url}/api/agents/taskboard/state`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: other },
          body: JSON.stringify({ threadId, state: { draft: 'theirs' } }),
        })
      ).json();
      expect([await read({ cookie }), await read({ cookie: other })]).toEqual(['mine', 'theirs']);
      const mine = (await (await fetch(`${server.url}/api/sessions`, { headers: { cookie } })).json()) as { sessions: { id: string }[] };
      const theirs = (await (await fetch(`${server.url}/api/sessions`, { headers: { cookie: other } })).json()) as { sessions: { id: string }[] };
      expect(mine.sessions.map((session) => session.id)).toContain(threadId);
      expect(theirs.sessions.map((session) => session.id)).toContain(threadId);
      expect(mine.sessions.filter((session) => session.id === threadId)).toHaveLength(1);
    });

    it('a browser cannot approve its own refund: a key holder sees it in /api/hitl and approves it, and the browser may withdraw the next', async () => {
      const cookie = await identityCookie(server.url);
      const threadId = randomUUID();
      const pause = async (text: string) => {
        const run = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(text)] }, { cookie });
        const outcome = (run.events.at(-1) as RunFinishedEvent).outcome;
        if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
        return outcome.interrupts[0]!;
      };
      const interrupt = await pause('refund order po_42 for 19.99');
      expect(interrupt.metadata).toMatchObject({ toolName: 'refundPayment', approvers: 'key-holders' });
      const logged = (await readSessionEvents(server.databaseUrl, threadId)).length;
      const resume = (payload: unknown, status = 'resolved', interruptId = interrupt.id) =>
        postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [], resume: [{ interruptId, status, payload }] }, { cookie });

      // The customer's own approval, over AG-UI or the browser's own endpoints, is refused and writes nothing.
      for (const payload of [{ approved: true }, { approved: false, reason: 'never mind' }]) {
        const refused = await resume(payload);
        expect(refused.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'approver_required' });
      }
      expect((await readSessionEvents(server.databaseUrl, threadId)).length).toBe(logged);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie } })).status).toBe(401);

      // The desk, with a key, sees the browser's refund among its own and approves it.
      const key = { authorization: 'Bearer key-one-0123456789abcdef' };
      const inbox = (await (await fetch(`${server.url}/api/hitl`, { headers: key })).json()) as {
        interrupts: { id: string; sessionId: string; ownSession: boolean }[];
      };
      expect(inbox.interrupts.map((entry) => entry.id)).toContain(interrupt.id);
      // The key decides it, but the conversation is the browser's: named by the browser's key, not the desk's own.
      expect(inbox.interrupts.find((entry) => entry.id === interrupt.id)).toMatchObject({ sessionId: threadId, ownSession: false });
      const approved = await fetch(`${server.url}/api/hitl/${interrupt.id}/approve`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json', 'x-stackbone-client': 'studio' },
        body: '{}',
      });
      expect(approved.status).toBe(200);
      // The source is the server's finding (a key in a header: the HTTP API); the client's word is a label.
      expect((await approved.json()).decision.by).toMatchObject({ source: 'hitl', credential: 'key', client: 'studio' });
      await eventually(async () => (await readSessionEvents(server.databaseUrl, threadId)).at(-1)?.type === 'run_finished', 20_000, 'the refund to finish');
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.filter((event) => event.type === 'tool_result')).toHaveLength(1);

      // Withdrawing the request (cancel) stays the customer's; the desk's inbox no longer has it.
      const next = await pause('refund order po_7 for 5');
      const withdrawn = await resume(undefined, 'cancelled', next.id);
      expect(withdrawn.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      expect(
        ((await (await fetch(`${server.url}/api/hitl`, { headers: key })).json()) as { interrupts: { id: string }[] }).interrupts.map((entry) => entry.id),
      ).not.toContain(next.id);
    });
  });

  describe(`STACKBONE_WEB_ACCESS=key (the default) on ${kind}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_key_access');
      server = await startServer({
        port: KEY_ACCESS_PORTS[kind],
        databaseUrl,
        env: { STACKBONE_API_KEYS: 'key-one-0123456789abcdef,key-two-0123456789abcdef', STACKBONE_SECRET: SECRET, STACKBONE_ADMIN_EMAILS: DESK },
      });
    });
    afterAll(() => server?.kill());

    it('a browser without a key gets no identity: pages send it to /sign-in and the AG-UI endpoint answers 401', async () => {
      const page = await fetch(`${server.url}/agents/helpdesk`, { redirect: 'manual' });
      expect(page.status).toBe(307);
      expect(page.headers.get('location')).toMatch(/\/sign-in\?next=%2Fagents%2Fhelpdesk$/);
      expect(page.headers.get('set-cookie')).toBeNull();
      const html = await (await fetch(`${server.url}/sign-in`)).text();
      expect(html).toContain('data-testid="account-form"');
      expect(html).toContain('data-web-access="key"');
      // A browser identity of the kind an open server gives is no identity here.
      const id = randomUUID();
      const random = signedCookie(id, nowSeconds());
      expect(
        (await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] }, { cookie: random })).status,
      ).toBe(401);
      expect((await fetch(`${server.url}/`, { headers: { cookie: random }, redirect: 'manual' })).status).toBe(307);
    });

    it("a key is never a browser's: no endpoint exchanges one for a cookie, and a key's cookie from when one did is nobody; the operator signs in to an account", async () => {
      // Sign-in is Better Auth's now: it has no endpoint that takes a key.
      const exchange = await fetch(`${server.url}/api/auth/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ key: 'key-one-0123456789abcdef' }),
      });
      expect(exchange.status).toBe(404);
      expect(exchange.headers.getSetCookie().join('; ')).not.toContain('stackbone_id');
      // A key's cookie as the server issued them, fresh and well signed: nobody, on every surface.
      const keyCookie = signedCookie(keyOwnerId('key-one-0123456789abcdef'), nowSeconds() - 60);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie: keyCookie } })).status).toBe(401);
      expect((await fetch(`${server.url}/api/studio/sessions/${randomUUID()}`, { headers: { cookie: keyCookie } })).status).toBe(401);
      const refused = await postRun(
        server.url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] },
        { cookie: keyCookie },
      );
      expect(refused.status).toBe(401);
      const page = await fetch(`${server.url}/`, { headers: { cookie: keyCookie }, redirect: 'manual' });
      expect(page.status).toBe(307);
      expect(page.headers.get('location')).toMatch(/\/sign-in\?next=%2F$/);

      // The operator's account: their conversations, Studio, /api/hitl, and the header says who.
      const desk = await signUp(server.url, DESK);
      expect(desk.status).toBe(200);
      const cookie = desk.cookie;
      const threadId = randomUUID();
      const run = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('look up order po_42')] }, { cookie });
      expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      // The thread is the operator's, not a key's.
      expect((await fetch(`${server.url}/api/v1/sessions/${threadId}`, { headers: { authorization: 'Bearer key-one-0123456789abcdef' } })).status).toBe(404);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie } })).status).toBe(200);
      expect((await fetch(`${server.url}/api/studio/sessions/${threadId}`, { headers: { cookie } })).status).toBe(200);
      const home = await fetch(`${server.url}/`, { headers: { cookie }, redirect: 'manual' });
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('data-testid="account-signed-in"');
      expect(html).toContain(DESK);
    });

    it('the sign-in page hands its form only a path of this site as where to go next', async () => {
      // The form's `next`, as the page serialized it for the browser.
      const nextOf = async (next: string) => {
        const html = await (await fetch(`${server.url}/sign-in?next=${encodeURIComponent(next)}`)).text();
        expect(html, next).toContain('data-testid="account-form"');
        return /\\"next\\":\\"([^\\]*)\\"/.exec(html)?.[1];
      };
      for (const next of ['/\t/evil.example', '//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)']) {
        expect(await nextOf(next), next).toBe('/');
      }
      expect(await nextOf('/agents/helpdesk?from=sign-in')).toBe('/agents/helpdesk?from=sign-in');
    });
  });
}
