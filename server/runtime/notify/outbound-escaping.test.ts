// What the model or a customer chose reaches people as text, never as markup (docs/approvals.md,
// "Slack setup"; docs/security.md, threat model): the security review's injection — a tool
// argument that closes Slack's code block and adds `<!channel>` and a labelled link — is escaped
// in every mrkdwn string of the Slack message and in the email's HTML; the session is named by its
// key, not by the store's owner-scoped id; and a Slack webhook that redirects has not received.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InterruptRecord } from '../../store/pauses';
import { emailChannel } from './email-channel';
import type { Notice } from './notice';
import { slackChannel } from './slack-channel';

/** The review's scripted call: `call refundPayment {"orderId":"po_42``` <!channel> <https://evil.example/x|Approve> ```","amount":7}`. */
const INJECTED = { orderId: 'po_42``` <!channel> <https://evil.example/x|Approve> ```', amount: 7 };
/** The helpdesk agent's describe() line for it, which the message's subject and headline carry. */
const LINE = `Refund $7.00 on order ${INJECTED.orderId} <@U024BE7LH> <#C024BE7LR> &lt;!here&gt;`;

const record: InterruptRecord = {
  id: 'int_injected',
  reason: 'tool_call',
  toolCallId: 'call_1',
  toolName: 'refundPayment',
  input: INJECTED,
  message: LINE,
  description: LINE,
  responseSchema: {},
  allowedDecisions: ['approve', 'reject'],
  expiresAt: '2099-01-01T00:00:00.000Z',
  onExpire: 'deny',
  schemaHash: 'x',
  runId: 'run_1',
  agent: 'helpdesk',
};
const notice: Notice = {
  id: 'msg_injected',
  type: 'interrupt.opened',
  // As the store keeps it: the owner's id (here a key's hash prefix), then the key the client chose.
  sessionId: 'key:66552f4ac6dd9af4f63a668a/slack-1',
  agent: 'helpdesk',
  ownerId: 'key:66552f4ac6dd9af4f63a668a',
  at: '2026-12-02T06:00:00.000Z',
  data: record as unknown as Notice['data'],
};

const env = { ...process.env };
beforeEach(() => {
  process.env.STACKBONE_SECRET = 's'.repeat(64);
  process.env.STACKBONE_PUBLIC_URL = 'https://desk.example.com';
  delete process.env.STACKBONE_SMTP_URL;
});
afterEach(() => {
  process.env = { ...env };
});

/** A local HTTP listener: what each request carried, answered by `answer`. */
async function listener(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: { path: string; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body });
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface MrkdwnText {
  type: string;
  text: string;
  verbatim?: boolean;
}
interface SlackBody {
  text: string;
  blocks: { type: string; text?: MrkdwnText; elements?: MrkdwnText[] }[];
}

/** Every mrkdwn string of a Slack body: the top-level `text`, each section's and each context element's. */
function mrkdwnStrings(body: SlackBody): string[] {
  const inBlocks = body.blocks.flatMap((block) => [block.text, ...(block.type === 'context' ? (block.elements ?? []) : [])]);
  return [body.text, ...inBlocks.filter((text): text is MrkdwnText => text?.type === 'mrkdwn').map((text) => text.text)];
}

/** What Slack shows for escaped mrkdwn text. */
const unescapeMrkdwn = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('the Slack message of a call whose arguments and line carry Slack markup', () => {
  it('escapes every mrkdwn string, keeps the arguments inside their code block, and names the session by its key', async () => {
    const slack = await listener((_request, response) => response.writeHead(200).end('ok'));
    try {
      await slackChannel().send(notice, `${slack.url}/services/T/B/X`);
      const raw = slack.received[0]!.body;
      // Nowhere in the body as posted: no mention, no channel, no labelled link that Slack would parse.
      for (const markup of ['<!channel>', '<!here>', '<@U024BE7LH>', '<#C024BE7LR>', '<https://', '|Approve>']) expect(raw, markup).not.toContain(markup);
      const body = JSON.parse(raw) as SlackBody;
      for (const text of mrkdwnStrings(body)) {
        // Slack's control characters appear only as the entities it asks for.
        expect(text, text).not.toMatch(/[<>]/);
        expect(text, text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }
      // What was already an entity in the line is shown as written, not as the character.
      expect(unescapeMrkdwn(body.text)).toContain('&lt;!here&gt;');
      expect(unescapeMrkdwn(body.text)).toBe(`Approval needed: ${LINE} (helpdesk)`);

      // The arguments: one code block, opened and closed by the message itself, holding JSON of exactly the arguments.
      const section = body.blocks[1]!.text!;
      expect(section.verbatim).toBe(true);
      const fenced = /^`refundPayment` with the arguments it will run with:\n```([^`]*)```$/.exec(section.text);
      expect(fenced, section.text).not.toBeNull();
      expect(JSON.parse(unescapeMrkdwn(fenced![1]!))).toEqual(INJECTED);

      // The context line: the session key the owner chose, no owner id.
      const context = body.blocks.find((block) => block.type === 'context')!.elements![0]!.text;
      expect(context).toContain('Session: slack-1');
      expect(context).not.toContain('66552f4a');
    } finally {
      await slack.close();
    }
  });

  it('clips long arguments without cutting an escape in two, within Slack’s 3,000 characters a section', async () => {
    const slack = await listener((_request, response) => response.writeHead(200).end('ok'));
    try {
      const long = { ...record, input: { note: '<&>`'.repeat(2000) } };
      await slackChannel().send({ ...notice, data: long as unknown as Notice['data'] }, slack.url);
      const section = (JSON.parse(slack.received[0]!.body) as SlackBody).blocks[1]!.text!.text;
      expect(section.length).toBeLessThanOrEqual(3000);
      const code = /```([^`]*)```$/.exec(section)![1]!;
      expect(code.endsWith('…')).toBe(true);
      expect(code.slice(0, -1)).toMatch(/(&lt;|&amp;|&gt;|\\u0060)$/);
    } finally {
      await slack.close();
    }
  });

  it('a webhook answering with a redirect has not received the message: the send fails, and the redirect is not followed', async () => {
    const elsewhere = await listener((_request, response) => response.writeHead(200).end('ok'));
    const slack = await listener((_request, response) => response.writeHead(302, { location: `${elsewhere.url}/moved` }).end());
    try {
      await expect(slackChannel().send(notice, `${slack.url}/services/T/B/X`)).rejects.toThrow(/answered 302/);
      expect(slack.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await Promise.all([slack.close(), elsewhere.close()]);
    }
  });
});

describe('the email of the same call', () => {
  it('carries the injection as escaped text in its HTML, with no link but its own, and names the session by its key', async () => {
    const mail = await emailChannel({ from: 'Desk <desk-bot@example.com>' }).deliver(notice, 'desk@example.com');
    for (const markup of ['<!channel>', '<@U024BE7LH>', '<#C024BE7LR>', '<https://', '|Approve>']) {
      expect(mail.html, markup).not.toContain(markup);
    }
    // Every tag is the template's; every link goes to this server's pages.
    const tags = mail.html.match(/<\/?[a-z!][^>]*>/gi) ?? [];
    expect(tags.filter((tag) => !/^<\/?(!doctype html|html|body|p|h1|pre|ul|li|a)\b/i.test(tag))).toEqual([]);
    const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.length).toBe(3);
    expect(hrefs.every((href) => href.startsWith('https://desk.example.com/'))).toBe(true);
    expect(mail.html).toContain('&#60;!channel&#62;');
    expect(mail.text).toContain('Session: slack-1');
    expect(mail.text).not.toContain('66552f4a');
    expect(mail.html).not.toContain('66552f4a');
  });
});
