// Notifications and one-click links against real servers (docs/approvals.md, "Notifications and
// one-click links"): the email channel, called here with a notice built from an interrupt the
// server stored, mails a real SMTP server; the mailed Approve link opens a page that decides
// nothing, and its form decides once — on a keyed server, with no sign-in before the page. A
// link used twice, expired, or minted for other arguments is refused with a page and a 4xx; a
// Reject link's reason reaches the model.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InterruptRecord } from '../../server/store/pauses';
import type { SessionEvent } from '../../server/store/events';
import { keyOwner } from '../../server/identity/api-keys';
import { argumentsHash, emailChannel, linkExpiry, signLink, type Notice } from '../../server/runtime';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { refundsIn } from '../fixtures/agents/ledger';
import { eventually, readSessionEvents } from '../support/inspect';
import { openMailbox, type Mailbox } from '../support/mailbox';
import { startServer, testPort, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const KEY = 'links-test-key-0123456789';
const SECRET = 'links-test-secret-'.padEnd(64, 'x');
const PORTS = { sqlite: 3303, postgres: 3304 } as const;
const auth = { authorization: `Bearer ${KEY}` };
const owner = keyOwner(KEY);

type Kind = keyof typeof PORTS;
const servers = new Map<Kind, TestServer>();
/** Each server's fixture ledger, where the helpdesk records its refunds. */
const ledgerFiles = new Map<Kind, string>();
const mail: { to: string; raw: string }[] = [];
let smtp: Mailbox;
let smtpUrl = '';

beforeAll(async () => {
  // The test process signs as the servers do.
  vi.stubEnv('STACKBONE_SECRET', SECRET);
  smtp = await openMailbox(mail);
  smtpUrl = smtp.url;
  const ledgers = await mkdtemp(path.join(os.tmpdir(), 'stackbone-links-'));
  const start = async (kind: Kind, databaseUrl: string) => {
    ledgerFiles.set(kind, path.join(ledgers, `${kind}.jsonl`));
    const env = {
      ...fixtureEnv(ledgerFiles.get(kind)!),
      STACKBONE_API_KEYS: KEY,
      STACKBONE_SECRET: SECRET,
      STACKBONE_PUBLIC_URL: `http://127.0.0.1:${testPort(PORTS[kind])}`,
    };
    servers.set(kind, await startServer({ port: PORTS[kind], databaseUrl, env }));
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_links'));
    })(),
  ]);
}, 60_000);

afterAll(async () => {
  // The next file in this worker starts its servers with this process's environment (vitest.config.ts).
  vi.unstubAllEnvs();
  await Promise.all([...servers.values()].map((server) => server.kill()));
  await smtp?.close();
});

/** Quoted-printable undone: the mailed text part, as a reader sees it. */
function mailedText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`approval links on ${kind}`, () => {
    const server = () => {
      const found = servers.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found;
    };

    /** A paused refund, and the notice the outbox would hand the channels: its interrupt as the server stored it. */
    async function pausedRefund(text = 'refund order po_42 for 19.99') {
      const threadId = randomUUID();
      await postRun(server().url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(text)] }, auth);
      const events = await readSessionEvents(server().databaseUrl, threadId, owner);
      const opened = events.find((event): event is Extract<SessionEvent, { type: 'interrupts_opened' }> => event.type === 'interrupts_opened');
      const interrupt = opened!.interrupts[0]!;
      const notice: Notice = {
        id: `msg_${randomUUID()}`,
        type: 'interrupt.opened',
        sessionId: threadId,
        agent: 'helpdesk',
        ownerId: owner,
        at: new Date().toISOString(),
        data: interrupt as unknown as Notice['data'],
      };
      return { threadId, interrupt, notice };
    }

    const page = (link: string) => fetch(link, { redirect: 'manual' });
    const decide = (token: string, fields: Record<string, string> = {}) =>
      fetch(`${server().url}/api/links/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server().url },
        body: new URLSearchParams({ token, ...fields }),
      });
    const tokenOf = (link: string) => link.split('/approve/')[1]!;
    const mint = (interrupt: InterruptRecord, action: 'approve' | 'reject', extra: { input?: unknown; expiresAt?: number } = {}) =>
      signLink({
        interruptId: interrupt.id,
        action,
        argsHash: argumentsHash(extra.input ?? interrupt.input),
        expiresAt: extra.expiresAt ?? linkExpiry(interrupt.expiresAt),
        recipient: 'email:desk@example.com',
      });

    it('mails the desk a link whose page decides nothing, whose form decides once, and which then refuses', async () => {
      const { threadId, interrupt, notice } = await pausedRefund();
      const before = refundsIn(ledgerFiles.get(kind)!).length;
      const to = `desk+${kind}@example.com`;
      await emailChannel({ smtpUrl, from: 'Stackbone <bot@example.com>', baseUrl: server().url }).send(notice, to);
      const received = await eventually(async () => mail.find((message) => message.to === to), 5_000, 'the mail');
      const text = mailedText(received.raw);
      expect(text).toContain('Subject: Approval needed: Refund $19.99 on order po_42');
      const approve = /Approve: (\S+)/.exec(text)![1]!;
      expect(approve.startsWith(`${server().url}/approve/`)).toBe(true);

      // GET: the page, on a keyed server without a sign-in, and nothing decided.
      const shown = await page(approve);
      expect(shown.status).toBe(200);
      const html = await shown.text();
      expect(html).toContain('Approve refund');
      expect(html).toContain('refund order po_42 for 19.99');
      const pending = (await (await fetch(`${server().url}/api/hitl`, { headers: auth })).json()) as { interrupts: { id: string }[] };
      expect(pending.interrupts.map((entry) => entry.id)).toContain(interrupt.id);

      // POST: decided, the run goes on, the refund is made once.
      const decided = await decide(tokenOf(approve));
      expect(decided.status).toBe(303);
      expect(decided.headers.get('location')).toBe(`/approve/${tokenOf(approve)}`);
      await eventually(
        async () => (await readSessionEvents(server().databaseUrl, threadId, owner)).filter((event) => event.type === 'run_finished').length === 2,
        10_000,
        'the continued run',
      );
      const events = await readSessionEvents(server().databaseUrl, threadId, owner);
      const decision = events.find((event) => event.type === 'interrupt_decided');
      expect(decision).toMatchObject({ decision: { status: 'approved', by: { source: 'link', credential: 'link', recipient: `email:${to}` } } });
      expect(refundsIn(ledgerFiles.get(kind)!).length).toBe(before + 1);

      // The same link again: refused, saying how (never by whom: docs/security.md); the page says so too.
      const again = await decide(tokenOf(approve));
      expect(again.status).toBe(409);
      const refusal = await again.text();
      expect(refusal).toContain('already decided: approved by someone through an emailed link');
      expect(refusal).not.toContain(to);
      expect(await (await page(approve)).text()).toContain('Approved by');
      expect(refundsIn(ledgerFiles.get(kind)!).length).toBe(before + 1);

      // The audit trail says how it was decided.
      const trail = (await (await fetch(`${server().url}/api/studio/sessions/${threadId}`, { headers: auth })).json()) as {
        entries: { kind: string; summary: string }[];
      };
      // In the chat's words: the tool by its title, and the run the link started by the link's channel.
      expect(trail.entries.find((entry) => entry.kind === 'decision')?.summary).toBe(`Approved “Refund an order” through an emailed link (${to})`);
      const decidedAt = trail.entries.findIndex((entry) => entry.kind === 'decision');
      // The run the link started is logged before the decision it carries out.
      expect(trail.entries.slice(0, decidedAt).findLast((entry) => entry.kind === 'run')?.summary).toBe(
        'Run started by a decision made through an emailed link',
      );
      expect(trail.entries.find((entry) => entry.kind === 'tool-call')?.summary).toBe('The agent called “Refund an order”');
    });

    it('refuses an expired link and one minted for other arguments, deciding nothing; a refused cross-site post decides nothing either', async () => {
      const { interrupt } = await pausedRefund();
      const expired = mint(interrupt, 'approve', { expiresAt: Math.floor(Date.now() / 1000) - 1 });
      const expiredPost = await decide(expired);
      expect(expiredPost.status).toBe(410);
      expect(await expiredPost.text()).toContain('This link expired');
      const expiredPage = await page(`${server().url}/approve/${expired}`);
      expect(expiredPage.status).toBe(410);
      expect(await expiredPage.text()).toContain('This link expired');
      const forged = await page(`${server().url}/approve/${expired.slice(0, -4)}AAAA`);
      expect(forged.status).toBe(403);
      expect(await forged.text()).toContain('This link is not valid');

      const other = mint(interrupt, 'approve', { input: { orderId: 'po_42', amount: 1999 } });
      expect((await decide(other)).status).toBe(409);
      expect(await (await page(`${server().url}/approve/${other}`)).text()).toContain('made for other arguments');

      const crossSite = await fetch(`${server().url}/api/links/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body: new URLSearchParams({ token: mint(interrupt, 'approve') }),
      });
      expect(crossSite.status).toBe(403);
      expect((await decide('not-a-token')).status).toBe(403);
      const pending = (await (await fetch(`${server().url}/api/hitl`, { headers: auth })).json()) as { interrupts: { id: string }[] };
      expect(pending.interrupts.map((entry) => entry.id)).toContain(interrupt.id);
    });

    it('rejects through a Reject link with a reason: the model is told', async () => {
      const { threadId, interrupt } = await pausedRefund();
      const response = await decide(mint(interrupt, 'reject'), { reason: 'Refunded by phone already' });
      expect(response.status).toBe(303);
      const told = await eventually(
        async () =>
          (await readSessionEvents(server().databaseUrl, threadId, owner)).find(
            (event) => event.type === 'tool_result' && event.message.toolCallId === interrupt.toolCallId,
          ),
        10_000,
        'the denial',
      );
      expect(told).toMatchObject({ status: 'denied' });
      expect(JSON.stringify(told)).toContain('Refunded by phone already');
    });
  });
}
