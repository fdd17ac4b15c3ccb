// People, not keys (docs/users-and-roles.md), against a production build on SQLite and PostgreSQL,
// keyed with open web access and STACKBONE_ROLES naming finance and ops: Better Auth answers at
// /api/auth; alice, bob and carol sign up there; a guest's $150 refund, kept for `role:finance`
// with two approvers over $100, waits; carol (ops) is refused; alice's cookie and her own API key
// are one voter; bob's vote decides it and the refund runs once; the guest signs up and the thread,
// with its result, is the account's. A guest made by Better Auth's anonymous plugin keeps its
// thread the same way, and on a server whose web access is `key` nobody unnamed signs up.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundsIn } from '../fixtures/agents/ledger';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { cookiesOf, newGuest } from '../support/guest';
import { account, PASSWORD, signUp } from '../support/accounts';
import { eventually } from '../support/inspect';
import { openMailbox, type Mailbox } from '../support/mailbox';
import { startServer, testPort, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3345, postgres: 3346, closed: 3347 } as const;
const SECRET = 'users-and-roles-test-secret-'.padEnd(64, 'x');
const SERVICE_KEY = 'svc-0123456789abcdef0123456789';
const ROLES = 'finance=alice@example.test,bob@example.test;ops=carol@example.test';
/** New identities an address gets an hour on the open servers: a page load's and a guest's alike. */
const NEW_IDENTITIES = 6;

type Kind = 'sqlite' | 'postgres';
const setups = new Map<Kind, { server: TestServer; ledgerFile: string }>();
let closed: TestServer;
let smtp: Mailbox;
const mail: { to: string; raw: string }[] = [];

const env = (port: number, extra: Record<string, string> = {}) => ({
  STACKBONE_API_KEYS: SERVICE_KEY,
  STACKBONE_SECRET: SECRET,
  STACKBONE_ROLES: ROLES,
  STACKBONE_PUBLIC_URL: `http://127.0.0.1:${testPort(port)}`,
  ...extra,
});

beforeAll(async () => {
  smtp = await openMailbox(mail);
  const smtpUrl = smtp.url;
  const start = async (kind: Kind, databaseUrl: string) => {
    const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-users-')), 'ledger.jsonl');
    const server = await startServer({
      port: PORTS[kind],
      databaseUrl,
      env: {
        ...fixtureEnv(ledgerFile),
        ...env(PORTS[kind], {
          STACKBONE_WEB_ACCESS: 'open',
          STACKBONE_ADMIN_EMAILS: 'desk@example.test',
          STACKBONE_MAX_NEW_IDENTITIES_PER_ADDRESS: String(NEW_IDENTITIES),
          STACKBONE_SMTP_URL: smtpUrl,
          STACKBONE_OUTBOX_MS: '200',
        }),
      },
    });
    setups.set(kind, { server, ledgerFile });
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_users'));
      else console.warn('!!! PostgreSQL unreachable: users and roles run on SQLite only');
    })(),
    (async () => {
      closed = await startServer({
        port: PORTS.closed,
        databaseUrl: await freshSqliteUrl(),
        env: env(PORTS.closed, {
          STACKBONE_ADMIN_EMAILS: 'root@example.test',
          STACKBONE_SMTP_URL: smtpUrl,
          // Two OAuth providers, each by its pair; Google's is half set, so it is off.
          GITHUB_CLIENT_ID: 'gh-client',
          GITHUB_CLIENT_SECRET: 'gh-secret',
          VERCEL_CLIENT_ID: 'oac_vercel-client',
          VERCEL_CLIENT_SECRET: 'vercel-secret',
          GOOGLE_CLIENT_ID: 'google-client-without-secret',
        }),
      });
    })(),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([...[...setups.values()].map(({ server }) => server.kill()), closed?.kill()]);
  await smtp?.close();
});

/** Quoted-printable undone: the mailed text, as its reader sees it. */
function mailedText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`users and roles on ${kind}`, () => {
    const setup = () => {
      const found = setups.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found;
    };
    const url = () => setup().server.url;
    const asUser = (cookie: string) => ({ cookie, origin: url() });
    const decide = async (interruptId: string, headers: Record<string, string>) => {
      const response = await fetch(`${url()}/api/hitl/${interruptId}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const inbox = async (headers: Record<string, string>) =>
      ((await (await fetch(`${url()}/api/hitl`, { headers })).json()) as { interrupts: { id: string }[] }).interrupts.map((item) => item.id);
    const thread = async (threadId: string, headers: Record<string, string>) => {
      const response = await fetch(`${url()}/api/agents/helpdesk-finance?threadId=${threadId}`, { headers });
      return { status: response.status, text: await response.text() };
    };

    it('a guest’s $150 refund is decided by two people with the finance role — not ops, not one person twice — runs once, and stays the guest’s when they sign up', async () => {
      expect(await (await fetch(`${url()}/api/auth/ok`)).json()).toEqual({ ok: true });
      const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((name) => signUp(url(), `${name}@example.test`)));
      for (const person of [alice, bob, carol]) {
        expect(person.status).toBe(200);
        expect(person.cookie).toMatch(/better-auth\.session_token=/);
      }
      const session = await (await fetch(`${url()}/api/auth/get-session`, { headers: asUser(alice.cookie) })).json();
      expect(session).toMatchObject({ user: { email: 'alice@example.test' } });

      // A guest on the public chat: one page load, then a $150 refund that waits for finance.
      const { cookie: guestCookie, ownerId: guestOwner } = await newGuest(url());
      // Better Auth's anonymous user, owning what it starts as the public chat's guests do.
      expect(guestOwner).toMatch(/^browser:[0-9a-f-]{36}$/);
      const guest = { cookie: guestCookie, origin: url() };
      const threadId = randomUUID();
      const run = await postRun(url(), 'helpdesk-finance', { threadId, runId: randomUUID(), messages: [userMessage('refund order po_150 for 150')] }, guest);
      const outcome = (run.events.at(-1) as RunFinishedEvent | undefined)?.outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
      const interrupt = outcome.interrupts[0]!;
      expect(interrupt.metadata).toMatchObject({ approvers: ['role:finance'], quorum: 2 });

      // Carol is ops: not in her inbox, and her approval is refused with who decides instead.
      expect(await inbox(asUser(carol.cookie))).not.toContain(interrupt.id);
      const byCarol = await decide(interrupt.id, asUser(carol.cookie));
      expect(byCarol.status).toBe(403);
      expect(byCarol.body.error).toMatchObject({ code: 'approver_required' });
      expect(byCarol.body.error.message).toContain('role:finance');

      // Alice's vote is one of two; her own API key is Alice again.
      expect(await inbox(asUser(alice.cookie))).toContain(interrupt.id);
      const byAlice = await decide(interrupt.id, asUser(alice.cookie));
      expect(byAlice).toMatchObject({ status: 200, body: { decision: null, vote: { status: 'approved' }, quorum: 2 } });
      const made = await fetch(`${url()}/api/auth/api-key/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...asUser(alice.cookie) },
        body: JSON.stringify({ name: 'laptop' }),
      });
      expect(made.status).toBe(200);
      const aliceKey = ((await made.json()) as { key: string }).key;
      expect(aliceKey).toMatch(/^sbk_/);
      const byAliceKey = await decide(interrupt.id, { authorization: `Bearer ${aliceKey}` });
      expect(byAliceKey.status).toBe(409);
      expect(byAliceKey.body.error).toMatchObject({ code: 'already_voted' });
      expect(refundsIn(setup().ledgerFile)).toEqual([]);

      // Bob's vote decides it; the refund runs once.
      const byBob = await decide(interrupt.id, asUser(bob.cookie));
      expect(byBob).toMatchObject({ status: 200, body: { decision: { status: 'approved' } } });
      await eventually(async () => refundsIn(setup().ledgerFile).length === 1, 15_000, 'the refund');
      await eventually(async () => (await thread(threadId, guest)).text.includes('Refunded $150.00 on order po_150'), 15_000, 'the result in the thread');
      expect(refundsIn(setup().ledgerFile)).toHaveLength(1);

      // The guest signs up from the same browser: the thread and its result are the account's.
      const dana = await signUp(url(), `dana-${kind}@example.test`, { cookie: guestCookie });
      expect(dana.status).toBe(200);
      const hers = await thread(threadId, asUser(dana.cookie));
      expect(hers.status).toBe(200);
      expect(hers.text).toContain('refund order po_150 for 150');
      expect(hers.text).toContain('Refunded $150.00 on order po_150');
      // Nobody else's thread: alice, signed in, does not find it under her own name.
      expect((await thread(threadId, asUser(alice.cookie))).status).toBe(404);
    });

    it('what is kept for key holders is an admin’s to decide, as a key’s: carol (ops) neither sees nor decides a guest’s refund; the desk’s admin does, once', async () => {
      const [desk, carol] = await Promise.all([account(url(), 'desk@example.test'), account(url(), 'carol@example.test')]);
      const guest = { cookie: (await newGuest(url())).cookie, origin: url() };
      const threadId = randomUUID();
      const run = await postRun(url(), 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] }, guest);
      const outcome = (run.events.at(-1) as RunFinishedEvent | undefined)?.outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
      const interrupt = outcome.interrupts[0]!;
      expect(interrupt.metadata).toMatchObject({ approvers: 'key-holders' });
      const before = refundsIn(setup().ledgerFile).length;

      // A member without the admin role is no key holder: on a public chat a customer may sign up too.
      expect(await inbox(asUser(carol))).not.toContain(interrupt.id);
      expect((await decide(interrupt.id, asUser(carol))).status).toBe(404);
      expect(refundsIn(setup().ledgerFile)).toHaveLength(before);

      expect(await inbox(asUser(desk))).toContain(interrupt.id);
      const byDesk = await decide(interrupt.id, asUser(desk));
      expect(byDesk).toMatchObject({ status: 200, body: { decision: { status: 'approved', by: { credential: 'user' } } } });
      await eventually(async () => refundsIn(setup().ledgerFile).length === before + 1, 15_000, 'the refund');
      expect((await decide(interrupt.id, asUser(desk))).status).toBe(409);
    });

    it('the approval mail goes to the people whose role decides it, and each link votes as its person: alice’s link and her cookie are one voter, bob’s link decides', async () => {
      const [alice, bob] = await Promise.all(['alice', 'bob'].map((name) => account(url(), `${name}@example.test`)));
      expect(bob).toMatch(/better-auth\.session_token=/);
      const guest = { cookie: (await newGuest(url())).cookie, origin: url() };
      const threadId = randomUUID();
      const run = await postRun(url(), 'helpdesk-finance', { threadId, runId: randomUUID(), messages: [userMessage('refund order po_300 for 300')] }, guest);
      const outcome = (run.events.at(-1) as RunFinishedEvent | undefined)?.outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
      const interruptId = outcome.interrupts[0]!.id;

      const mailTo = (to: string) =>
        eventually(
          async () =>
            mail.map((sent) => ({ ...sent, text: mailedText(sent.raw) })).find((sent) => sent.to === to && sent.text.includes(`decision=${interruptId}`))?.text,
          15_000,
          `the mail to ${to}`,
        );
      const aliceLink = /Approve: \S+\/approve\/(\S+)/.exec(await mailTo('alice@example.test'))?.[1];
      const bobLink = /Approve: \S+\/approve\/(\S+)/.exec(await mailTo('bob@example.test'))?.[1];
      expect(aliceLink && bobLink).toBeTruthy();
      // Carol is ops: her role decides nothing here, so nothing is mailed to her about it.
      expect(mail.some((sent) => sent.to === 'carol@example.test' && mailedText(sent.raw).includes(`decision=${interruptId}`))).toBe(false);

      const byLink = async (token: string) => {
        const response = await fetch(`${url()}/api/links/decide`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url() },
          body: JSON.stringify({ token }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      expect(await byLink(aliceLink!)).toMatchObject({ status: 200, body: { decision: null } });
      const again = await decide(interruptId, asUser(alice!));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'already_voted' });
      expect(await byLink(bobLink!)).toMatchObject({ status: 200, body: { decision: { status: 'approved' } } });
      await eventually(async () => refundsIn(setup().ledgerFile).some((line) => line.key === 'refund po_300 300'), 15_000, 'the refund');
      expect(refundsIn(setup().ledgerFile).filter((line) => line.key === 'refund po_300 300')).toHaveLength(1);
    });

    it("a guest of Better Auth's anonymous plugin keeps its thread when it signs up, and a second sign-up with the same address is refused", async () => {
      const anonymous = await fetch(`${url()}/api/auth/sign-in/anonymous`, {
        method: 'POST',
        headers: { origin: url(), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(anonymous.status).toBe(200);
      const guestCookie = cookiesOf(anonymous);
      const threadId = randomUUID();
      const run = await postRun(
        url(),
        'helpdesk-finance',
        { threadId, runId: randomUUID(), messages: [userMessage('look up order po_42')] },
        { cookie: guestCookie, origin: url() },
      );
      expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      const erin = await signUp(url(), `erin-${kind}@example.test`, { cookie: guestCookie });
      expect(erin.status).toBe(200);
      const hers = await thread(threadId, asUser(erin.cookie));
      expect(hers.status).toBe(200);
      expect(hers.text).toContain('Analytical Engine manual');
      expect((await signUp(url(), `erin-${kind}@example.test`)).status).toBe(422);
    });

    it("new guests count against their address as new browser identities do: the open web's limit holds for Better Auth's guests", async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= NEW_IDENTITIES; attempt++) {
        const response = await fetch(`${url()}/api/auth/sign-in/anonymous`, {
          method: 'POST',
          headers: { origin: url(), 'content-type': 'application/json' },
          body: '{}',
        });
        statuses.push(response.status);
        if (response.status === 429) {
          expect(((await response.json()) as { message?: string }).message).toMatch(/Too many new visitors from this address/);
          break;
        }
      }
      // The page load and the guest of the tests above counted too: fewer than the limit pass here.
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.filter((status) => status === 200).length).toBeLessThan(NEW_IDENTITIES);
    });
  });
}

describe('a server whose web access is `key`', () => {
  it('lets only the addresses its configuration names sign up, and no guests', async () => {
    const url = closed.url;
    expect((await signUp(url, 'mallory@example.test')).status).toBe(403);
    const anonymous = await fetch(`${url}/api/auth/sign-in/anonymous`, {
      method: 'POST',
      headers: { origin: url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(403);
    const alice = await signUp(url, 'alice@example.test');
    expect(alice.status).toBe(200);
    // Signed in, she uses the app's key holders' surfaces as herself.
    const inbox = await fetch(`${url}/api/hitl`, { headers: { cookie: alice.cookie } });
    expect(inbox.status).toBe(200);
  });

  it('offers each OAuth provider whose pair is set, and sends the browser to it with its callback here', async () => {
    const url = closed.url;
    const page = await (await fetch(`${url}/sign-in`)).text();
    expect(page).toContain('data-testid="oauth-github"');
    expect(page).toContain('data-testid="oauth-vercel"');
    expect(page).not.toContain('data-testid="oauth-google"');
    const start = (provider: string) =>
      fetch(`${url}/api/auth/sign-in/social`, {
        method: 'POST',
        headers: { origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ provider, callbackURL: '/studio' }),
      });
    for (const [provider, host, clientId] of [
      ['github', 'github.com', 'gh-client'],
      ['vercel', 'vercel.com', 'oac_vercel-client'],
    ] as const) {
      const answer = await start(provider);
      expect(answer.status, provider).toBe(200);
      const to = new URL(((await answer.json()) as { url: string }).url);
      expect(to.host, provider).toBe(host);
      expect(to.searchParams.get('client_id'), provider).toBe(clientId);
      expect(to.searchParams.get('redirect_uri'), provider).toBe(`${url}/api/auth/callback/${provider}`);
    }
    expect((await start('google')).status).toBe(404);
  });
});

describe('roles given by an admin', () => {
  const cli = (args: string[], key: string) =>
    promisify(execFile)(process.execPath, ['bin/stackbone.mjs', ...args], { env: { ...process.env, STACKBONE_URL: closed.url, STACKBONE_API_KEY: key } });

  it('an admin (STACKBONE_ADMIN_EMAILS) and a service key give roles, with the CLI too; a member who is not an admin cannot', async () => {
    const url = closed.url;
    const root = await signUp(url, 'root@example.test');
    expect(root.status).toBe(200);
    const carol = await signUp(url, 'carol@example.test');
    expect(carol.status).toBe(200);
    const roleChange = (cookie: string, body: unknown) =>
      fetch(`${url}/api/studio/team/roles`, {
        method: 'POST',
        headers: { cookie, origin: url, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // Carol (ops) may not give herself finance.
    const refused = await roleChange(carol.cookie, { email: 'carol@example.test', role: 'finance' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'admin_required' } });
    // The admin may; the team list shows it.
    const given = await roleChange(root.cookie, { email: 'carol@example.test', role: 'finance' });
    expect(await given.json()).toEqual({ email: 'carol@example.test', roles: ['finance', 'ops'] });
    expect((await roleChange(root.cookie, { email: 'nobody@example.test', role: 'finance' })).status).toBe(404);

    // The CLI with the service key: take it back, then list.
    const taken = await cli(['users', 'role', 'carol@example.test', 'finance', '--remove'], SERVICE_KEY);
    expect(taken.stdout).toBe('carol@example.test: ops\n');
    const listed = await cli(['users', 'list'], SERVICE_KEY);
    expect(listed.stdout).toMatch(/^EMAIL\s+ROLES\n/);
    expect(listed.stdout).toMatch(/root@example\.test\s+admin\n/);
    expect(listed.stdout).toMatch(/carol@example\.test\s+ops\n/);
  });
});

describe('a forgotten password', () => {
  it('is reset through the mailed link, once: the new password signs in, the old one and the used link do not', async () => {
    const url = closed.url;
    const signIn = (password: string) =>
      fetch(`${url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ email: 'bob@example.test', password }),
      });
    expect((await signUp(url, 'bob@example.test')).status).toBe(200);
    const asked = await fetch(`${url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email: 'bob@example.test', redirectTo: '/reset-password' }),
    });
    expect(asked.status).toBe(200);
    const message = await eventually(
      async () => mail.find((sent) => sent.to === 'bob@example.test' && sent.raw.includes('Choose a new password'))?.raw,
      10_000,
      'the reset mail',
    );
    expect(message).toContain('Subject: Choose a new password');
    const link = /Choose a new one: (\S+)/.exec(message.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
    expect(link).toBeDefined();
    // The link lands on the app's page with the token.
    const landed = await fetch(link!, { redirect: 'manual' });
    const token = new URL(landed.headers.get('location')!, url).searchParams.get('token');
    expect(new URL(landed.headers.get('location')!, url).pathname).toBe('/reset-password');
    const reset = (newPassword: string) =>
      fetch(`${url}/api/auth/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ newPassword, token }),
      });
    expect((await reset('a brand new password')).status).toBe(200);
    expect((await signIn('a brand new password')).status).toBe(200);
    expect((await signIn(PASSWORD)).status).toBe(401);
    expect((await reset('yet another password')).status).toBe(400);
  });
});

describe('a sign-in link by email', () => {
  const requestLink = (url: string, email: string) =>
    fetch(`${url}/api/auth/sign-in/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, callbackURL: '/studio' }),
    });
  const linkMailedTo = (email: string) =>
    eventually(
      async () => {
        const raw = mail.filter((sent) => sent.to === email && sent.raw.includes('Your sign-in link')).at(-1)?.raw;
        return raw && /Sign in as \S+: (\S+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
      },
      10_000,
      `the sign-in link to ${email}`,
    );

  it('signs in a named address once; an address the server does not let in gets no session from it', async () => {
    const url = closed.url;
    await signUp(url, 'carol@example.test'); // made already by the roles test when it ran first; either way she has an account
    expect((await requestLink(url, 'carol@example.test')).status).toBe(200);
    const link = await linkMailedTo('carol@example.test');
    const followed = await fetch(link, { redirect: 'manual' });
    expect(new URL(followed.headers.get('location')!, url).pathname).toBe('/studio');
    const cookie = cookiesOf(followed);
    expect(cookie).toMatch(/better-auth\.session_token=/);
    expect(await (await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })).json()).toMatchObject({ user: { email: 'carol@example.test' } });
    // Once only.
    expect(cookiesOf(await fetch(link, { redirect: 'manual' }))).not.toMatch(/better-auth\.session_token=[^;]+/);

    // Sign-up is closed here: a link for an unnamed address signs nobody in.
    expect((await requestLink(url, 'mallory@example.test')).status).toBe(200);
    const strangers = cookiesOf(await fetch(await linkMailedTo('mallory@example.test'), { redirect: 'manual' }));
    expect(strangers).not.toMatch(/better-auth\.session_token=[^;]+/);
  });
});

describe('a production server open without keys or a secret (STACKBONE_ALLOW_OPEN_ACCESS=1)', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer({
      port: 3348,
      databaseUrl: await freshSqliteUrl(),
      env: { STACKBONE_API_KEYS: '', STACKBONE_SECRET: '', BETTER_AUTH_SECRET: '' },
    });
  }, 60_000);
  afterAll(() => bare?.kill());

  it('keeps accounts off and says how to turn them on, and the chat works as before', async () => {
    const ok = await fetch(`${bare.url}/api/auth/ok`);
    expect(ok.status).toBe(503);
    expect(await ok.json()).toMatchObject({ error: { code: 'accounts_unavailable', message: expect.stringContaining('BETTER_AUTH_SECRET') } });
    expect(await (await fetch(`${bare.url}/sign-in`)).text()).toContain('data-testid="accounts-off"');
    const home = await (await fetch(`${bare.url}/`)).text();
    expect(home).not.toContain('data-testid="sign-in-link"');
    expect(home).toContain('Helpdesk');
  });
});
