// The security review's Slack injection against real servers (docs/approvals.md, "Slack setup"):
// one keyed `next start` per database kind with STACKBONE_WEB_ACCESS=open and
// STACKBONE_SLACK_WEBHOOK_URL pointing at a listener in this file. An anonymous customer's
// scripted model asks for a refund whose order id closes the arguments' code block and adds
// `<!channel>` and a labelled link; the outbox's POST to the listener carries all of it as
// escaped text, the code block unbroken, and the session named by the customer's key alone.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: 3373, postgres: 3374 } as const;
type Kind = keyof typeof PORTS;
/** The review's exact arguments. */
const INJECTED = { orderId: 'po_42``` <!channel> <https://evil.example/x|Approve> ```', amount: 7 };

/** A Slack incoming webhook stand-in on an ephemeral port: every body it was posted, parsed and raw. */
async function startSlack() {
  const received: { raw: string; body: SlackBody }[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ raw, body: JSON.parse(raw) as SlackBody });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/XXXX`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface SlackBody {
  text: string;
  blocks: { type: string; text?: { type: string; text: string }; elements?: { type: string; text?: string }[] }[];
}

const backends = new Map<Kind, { server: TestServer; slack: Awaited<ReturnType<typeof startSlack>> }>();
const postgres = await postgresReachable();

beforeAll(async () => {
  const start = async (kind: Kind, databaseUrl: Promise<string>) => {
    const slack = await startSlack();
    const env = {
      STACKBONE_API_KEYS: 'slack-test-key-0123456789',
      STACKBONE_SECRET: 'slack-test-secret-'.padEnd(64, 'x'),
      STACKBONE_WEB_ACCESS: 'open',
      STACKBONE_SLACK_WEBHOOK_URL: slack.url,
      STACKBONE_OUTBOX_MS: '100',
    };
    backends.set(kind, { server: await startServer({ port: PORTS[kind], databaseUrl: await databaseUrl, env }), slack });
  };
  await Promise.all([start('sqlite', freshSqliteUrl()), ...(postgres ? [start('postgres', freshPostgresUrl('stackbone_slack'))] : [])]);
}, 60_000);
afterAll(async () => {
  await Promise.all([...backends.values()].map(({ server, slack }) => Promise.all([server.kill(), slack.close()])));
});

const unescapeMrkdwn = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe.skipIf(kind === 'postgres' && !postgres)(`the Slack message of an injected refund on ${kind}`, () => {
    it("carries the customer's markup as text: no mention, no labelled link, the code block unbroken, no owner id", async () => {
      const { server, slack } = backends.get(kind)!;
      // An anonymous customer on the public chat: a guest from the first page.
      const { cookie, ownerId } = await newGuest(server.url);
      const browserId = ownerId.slice('browser:'.length);
      const threadId = `anon-slack-${randomUUID()}`;
      const run = await postRun(
        server.url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [userMessage(`call refundPayment ${JSON.stringify(INJECTED)}`)] },
        { cookie },
      );
      expect(run.status).toBe(200);
      // The refund waits for a key holder; the outbox posts its notice to the channel.
      const { raw, body } = await eventually(async () => slack.received.find((entry) => entry.raw.includes(threadId)), 15_000, 'the Slack message');

      for (const markup of ['<!channel>', '<https://', '|Approve>', '<!here>', '<@']) expect(raw, markup).not.toContain(markup);
      expect(unescapeMrkdwn(body.text)).toBe(`Approval needed: Refund $7.00 on order ${INJECTED.orderId} (helpdesk)`);
      const mrkdwn = [body.text, ...body.blocks.flatMap((block) => [block.text?.text, ...(block.elements ?? []).map((element) => element.text)])];
      for (const text of mrkdwn.filter((text): text is string => typeof text === 'string')) expect(text, text).not.toMatch(/[<>]/);

      const section = body.blocks[1]!.text!.text;
      const fenced = /^`refundPayment` with the arguments it will run with:\n```([^`]*)```$/.exec(section);
      expect(fenced, section).not.toBeNull();
      expect(JSON.parse(unescapeMrkdwn(fenced![1]!))).toEqual(INJECTED);
      // The tool's lookup (docs/hitl.md, "Approval context") quotes the injected id too: as text, no code span opened.
      const found = body.blocks[2]!.text!.text;
      expect(found).toMatch(/^:warning: There is no order po_42/);
      expect(found).not.toContain('`');

      const context = body.blocks.find((block) => block.type === 'context')!.elements![0]!.text!;
      expect(context).toContain(`Session: ${threadId}`);
      expect(raw).not.toContain(browserId);
      // The buttons still lead to this server's confirmation page.
      const actions = body.blocks.find((block) => block.type === 'actions')! as unknown as { elements: { url: string }[] };
      expect(actions.elements.every((button) => button.url.startsWith('http'))).toBe(true);
      expect(actions.elements.map((button) => new URL(button.url).pathname.split('/')[1])).toEqual(['approve', 'approve', 'studio']);
    });
  });
}
