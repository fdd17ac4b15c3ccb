// The approval rules no one can get around (docs/approvals.md, "A link counts as a person",
// "Edits are counted again", "Votes"; docs/security.md, "Links and deliveries"): the outside
// review's attacks replayed against a production build in keyed mode with open web access, on
// SQLite and PostgreSQL, with mail going to a real SMTP server. A requester reads no link from
// the API and an address bound to nobody votes for nobody; a key holder's own link is the same
// voter as their key; another key decides no customer's own call by link; one approver cannot
// edit a $5 refund into a $5,000 one; a customer's hydration and a link's answer name no voter.
// Each refusal writes nothing and runs nothing (the fixture's ledger, where the helpdesk's refunds are kept too), and the
// honest paths still work.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readLedger, refundsIn } from '../fixtures/agents/ledger';
import type { SessionEvent } from '../../server/store/events';
import { argumentsHash, linkExpiry, signLink } from '../../server/credentials/link-token';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { openMailbox, type Mailbox } from '../support/mailbox';
import { startServer, testPort, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: 3351, postgres: 3352 } as const;
const SECRET = 'approval-identity-test-secret-'.padEnd(64, 'x');
const KEYS = { alice: 'ik-alice-0123456789abcdef', bob: 'ik-bob-0123456789abcdefgh', carol: 'ik-carol-0123456789abcdef' } as const;
const keyOwnerId = (key: string) => `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

type Kind = keyof typeof PORTS;
const setups = new Map<Kind, { server: TestServer; ledgerFile: string }>();
const mail: { to: string; raw: string }[] = [];
let smtp: Mailbox;

beforeAll(async () => {
  // The test signs a link as a leaked one would have been signed (the old Studio handed them out).
  vi.stubEnv('STACKBONE_SECRET', SECRET);
  smtp = await openMailbox(mail);
  const smtpUrl = smtp.url;
  const start = async (kind: Kind, databaseUrl: string) => {
    const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-identity-')), 'ledger.jsonl');
    const server = await startServer({
      port: PORTS[kind],
      databaseUrl,
      env: {
        ...fixtureEnv(ledgerFile),
        STACKBONE_API_KEYS: `alice:finance=${KEYS.alice},bob:finance=${KEYS.bob},carol:ops=${KEYS.carol}`,
        STACKBONE_SECRET: SECRET,
        STACKBONE_WEB_ACCESS: 'open',
        STACKBONE_SMTP_URL: smtpUrl,
        STACKBONE_OUTBOX_MS: '200',
        // desk@ is bound to nobody: the review's shared mailbox.
        STACKBONE_NOTIFY_EMAIL: 'desk@example.com,alice@example.com,bob@example.com',
        STACKBONE_APPROVER_EMAILS: 'alice=alice@example.com,bob=bob@example.com,carol=carol@example.com',
        STACKBONE_PUBLIC_URL: `http://127.0.0.1:${testPort(PORTS[kind])}`,
      },
    });
    setups.set(kind, { server, ledgerFile });
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_approval_identity'));
      else console.warn('!!! PostgreSQL unreachable: approval identity runs on SQLite only');
    })(),
  ]);
}, 90_000);

afterAll(async () => {
  // The next file in this worker starts its servers with this process's environment (vitest.config.ts).
  vi.unstubAllEnvs();
  await Promise.all([...setups.values()].map(({ server }) => server.kill()));
  await smtp?.close();
});

/** Quoted-printable undone: the mailed text, as its reader sees it. */
function mailedText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`approval identity on ${kind}`, () => {
    const setup = () => {
      const found = setups.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found;
    };
    const url = () => setup().server.url;
    const db = () => setup().server.databaseUrl;

    /** A guest of the public chat: one page load. */
    async function browser(): Promise<{ cookie: string; ownerId: string; headers: Record<string, string> }> {
      const { cookie, ownerId } = await newGuest(url());
      return { cookie, ownerId, headers: { cookie, origin: url() } };
    }

    /** A turn paused on one approval; its interrupt as the run announced it. */
    async function paused(agent: string, text: string, headers: Record<string, string>) {
      const threadId = randomUUID();
      const run = await postRun(url(), agent, { threadId, runId: randomUUID(), messages: [userMessage(text)] }, headers);
      const outcome = (run.events.at(-1) as RunFinishedEvent | undefined)?.outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(run.events.at(-1))}`);
      return { threadId, interrupt: outcome.interrupts[0]! };
    }

    /** The message mailed to `to` about an interrupt (its Studio link names it). */
    const mailTo = (to: string, interruptId: string) =>
      eventually(
        async () => {
          const found = mail.find((message) => message.to === to && mailedText(message.raw).includes(`decision=${interruptId}`));
          return found && mailedText(found.raw);
        },
        15_000,
        `the mail to ${to}`,
      );
    const approveLink = (text: string) => /Approve: \S+\/approve\/(\S+)/.exec(text)?.[1];
    /** A link signed as the server signs them: what the old Studio handed out for any recipient. */
    const leaked = (interrupt: { id: string; metadata?: Record<string, unknown> }, recipient: string) =>
      signLink({
        interruptId: interrupt.id,
        action: 'approve',
        argsHash: argumentsHash(interrupt.metadata!.args),
        expiresAt: linkExpiry(undefined),
        recipient,
      });
    const decideByLink = async (token: string) => {
      const response = await fetch(`${url()}/api/links/decide`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url() },
        body: JSON.stringify({ token }),
      });
      return { status: response.status, text: await response.text() };
    };
    const hitl = async (interruptId: string, key: string, body: unknown = {}) => {
      const response = await fetch(`${url()}/api/hitl/${interruptId}/approve`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const events = (threadId: string, ownerId: string) => readSessionEvents(db(), threadId, ownerId);
    const count = (log: SessionEvent[], type: SessionEvent['type']) => log.filter((event) => event.type === type).length;

    it("a requester reads no link from the API, and links of addresses bound to nobody — or to the requester — decide nothing; alice's key and alice's link are one voter; bob's mailed link completes the payout once", async () => {
      const reference = `pay-${randomUUID()}`;
      const carol = keyOwnerId(KEYS.carol);
      const { threadId, interrupt } = await paused('quorum-desk', `call payOut {"key": "${reference}", "amount": 500}`, bearer(KEYS.carol));
      expect(interrupt.metadata).toMatchObject({ approvers: ['key:finance'], quorum: 2, requesterMayApprove: false });

      // Who may decide gets links; the shared mailbox is told for its information only.
      const toDesk = await mailTo('desk@example.com', interrupt.id);
      expect(toDesk).toContain('Subject: For your information: approval requested: Pay out 500');
      expect(toDesk).not.toContain('/approve/');
      const aliceLink = approveLink(await mailTo('alice@example.com', interrupt.id));
      const bobLink = approveLink(await mailTo('bob@example.com', interrupt.id));
      expect(aliceLink && bobLink).toBeTruthy();

      // The requester lists the deliveries of her session: no token that decides.
      const deliveries = await (await fetch(`${url()}/api/studio/deliveries`, { headers: bearer(KEYS.carol) })).text();
      expect(deliveries).toContain('desk@example.com');
      expect(deliveries).not.toContain('/approve/');
      expect(deliveries).not.toContain(aliceLink!.slice(0, 40));

      // The review's attack: links for the notified addresses, voted by the requester. Nobody's, then hers.
      for (const recipient of ['email:desk@example.com', 'email:finance@example.com']) {
        expect(await decideByLink(leaked(interrupt, recipient))).toMatchObject({ status: 404 });
      }
      const asCarol = await decideByLink(leaked(interrupt, 'email:carol@example.com'));
      expect(asCarol.status).toBe(403);
      expect(asCarol.text).toMatch(/approver_required|requester_may_not_approve/);
      expect(count(await events(threadId, carol), 'interrupt_voted')).toBe(0);

      // Alice votes with her key; her own mailed link is her again.
      expect(await hitl(interrupt.id, KEYS.alice)).toMatchObject({ status: 200, body: { vote: { status: 'approved', by: { keyName: 'alice' } } } });
      expect(await decideByLink(aliceLink!)).toMatchObject({ status: 409, text: expect.stringContaining('already_voted') });
      expect(readLedger(setup().ledgerFile).filter((line) => line.key === reference)).toEqual([]);

      // Bob's mailed link is Bob's vote: the second finance approver. The answer names nobody.
      const decided = await decideByLink(bobLink!);
      expect(decided.status).toBe(200);
      expect(JSON.parse(decided.text)).toMatchObject({ decision: { status: 'approved', votes: [{ status: 'approved' }, { status: 'approved' }] } });
      for (const hidden of ['ownerId', 'keyName', 'alice', keyOwnerId(KEYS.alice).slice(4)]) expect(decided.text).not.toContain(hidden);
      await eventually(async () => count(await events(threadId, carol), 'run_finished') === 2, 10_000, 'the continuation');
      const log = await events(threadId, carol);
      expect(log.find((event) => event.type === 'interrupt_decided')).toMatchObject({
        decision: { votes: [{ by: { credential: 'key', keyName: 'alice' } }, { by: { source: 'link', keyName: 'bob', ownerId: keyOwnerId(KEYS.bob) } }] },
      });
      expect(readLedger(setup().ledgerFile).filter((line) => line.key === reference && line.kind === 'effect')).toHaveLength(1);
    });

    it("a customer's two-approver refund: an unbound address's link is no second approver, the key holder's own link is the same one, the customer sees a count and no voter; the second key holder's link refunds once", async () => {
      const customer = await browser();
      const { threadId, interrupt } = await paused('helpdesk', 'refund order po_1 for 129', customer.headers);
      expect(interrupt.metadata).toMatchObject({ approvers: 'key-holders', quorum: 2 });
      const refunds = refundsIn(setup().ledgerFile).length;
      expect(await mailTo('refunds@example.com', interrupt.id)).not.toContain('/approve/');
      const aliceLink = approveLink(await mailTo('alice@example.com', interrupt.id))!;
      const bobLink = approveLink(await mailTo('bob@example.com', interrupt.id))!;

      expect(await hitl(interrupt.id, KEYS.alice)).toMatchObject({ status: 200, body: { vote: { status: 'approved' } } });
      expect(await decideByLink(leaked(interrupt, 'email:refunds@example.com'))).toMatchObject({ status: 404 });
      expect(await decideByLink(aliceLink)).toMatchObject({ status: 409 });
      expect(refundsIn(setup().ledgerFile).length).toBe(refunds);

      // The customer's hydration: "1 of 2", and nothing of who (no oracle for the key).
      const hydration = await (await fetch(`${url()}/api/agents/helpdesk?threadId=${threadId}`, { headers: { cookie: customer.cookie } })).text();
      const pending = JSON.parse(hydration).interrupts.pending[0];
      expect(pending.metadata).toMatchObject({ quorum: 2, votes: [{ status: 'approved' }] });
      expect(pending.metadata.votes[0].by).toBeUndefined();
      for (const hidden of [keyOwnerId(KEYS.alice).slice(4), '"keyName"', '"alice"']) expect(hydration).not.toContain(hidden);

      expect((await decideByLink(bobLink)).status).toBe(200);
      await eventually(async () => count(await events(threadId, customer.ownerId), 'run_finished') === 2, 10_000, 'the refund');
      expect(refundsIn(setup().ledgerFile).length).toBe(refunds + 1);
    });

    it("another key decides no customer's own call by link: the notice carries none, a link made anyway is refused, and the ticket stays open", async () => {
      const customer = await browser();
      const { threadId, interrupt } = await paused('helpdesk', 'close ticket T-9', customer.headers);
      for (const to of ['desk@example.com', 'bob@example.com']) expect(await mailTo(to, interrupt.id)).not.toContain('/approve/');
      for (const recipient of ['email:bob@example.com', 'email:desk@example.com']) {
        expect(await decideByLink(leaked(interrupt, recipient))).toMatchObject({ status: 404 });
      }
      const log = await events(threadId, customer.ownerId);
      expect(count(log, 'interrupt_decided') + count(log, 'tool_started')).toBe(0);
    });

    it('one approver cannot edit a $5 refund into $5,000 (it needs two); may edit $50 into $60', async () => {
      const customer = await browser();
      const small = await paused('helpdesk', 'refund order po_9999 for 5', customer.headers);
      expect(small.interrupt.metadata).toMatchObject({ allowedDecisions: ['approve', 'reject', 'edit'] });
      expect(small.interrupt.metadata!.quorum).toBeUndefined();
      const refunds = refundsIn(setup().ledgerFile).length;
      const refused = await hitl(small.interrupt.id, KEYS.alice, { editedArgs: { orderId: 'po_9999', amount: 5000 } });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'edit_needs_quorum' } } });
      expect(count(await events(small.threadId, customer.ownerId), 'interrupt_decided')).toBe(0);
      expect(refundsIn(setup().ledgerFile).length).toBe(refunds);

      const honest = await paused('helpdesk', 'refund order po_9999 for 50', customer.headers);
      expect(await hitl(honest.interrupt.id, KEYS.alice, { editedArgs: { orderId: 'po_9999', amount: 60 } })).toMatchObject({
        status: 200,
        body: { decision: { status: 'approved', editedArgs: { amount: 60 } } },
      });
      const result = await eventually(
        async () =>
          (await events(honest.threadId, customer.ownerId)).find(
            (event) => event.type === 'tool_result' && event.message.toolCallId === honest.interrupt.toolCallId,
          ),
        10_000,
        'the refund',
      );
      expect(JSON.stringify(result)).toContain('Refunded $60.00 on order po_9999');
      expect(refundsIn(setup().ledgerFile).length).toBe(refunds + 1);
    });
  });
}
