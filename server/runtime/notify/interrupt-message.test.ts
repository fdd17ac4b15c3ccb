import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import type { InterruptRecord } from '../../store/pauses';
import { notableEvents } from '../../store/notices';
import { emailChannel, keptEmails } from './email-channel';
import { renderInterruptMessage } from './interrupt-message';
import type { Notice } from './notice';
import { verifyLink } from './signed-link';
import { slackChannel } from './slack-channel';
import { notificationTargets } from './targets';

const record: InterruptRecord = {
  id: 'int_1',
  reason: 'tool_call',
  toolCallId: 'call_1',
  toolName: 'refundPayment',
  input: { orderId: 'A-1001', amount: 120 },
  message: 'Refund $120.00 on order A-1001',
  description: 'Refund $120.00 on order A-1001',
  responseSchema: {},
  allowedDecisions: ['approve', 'reject'],
  expiresAt: '2099-01-01T00:00:00.000Z',
  onExpire: 'deny',
  schemaHash: 'x',
  runId: 'run_1',
  agent: 'helpdesk',
};
const notice = (type: Notice['type'] = 'interrupt.opened', data: object = record): Notice => ({
  id: 'msg_1',
  type,
  sessionId: 'thread-1',
  agent: 'helpdesk',
  ownerId: 'local',
  at: '2026-12-02T06:00:00.000Z',
  data: data as Notice['data'],
});
const tokenOf = (url: string) => decodeURIComponent(url.split('/approve/')[1]!);

const env = { ...process.env };
beforeEach(() => {
  process.env.STACKBONE_SECRET = 's'.repeat(64);
  process.env.STACKBONE_PUBLIC_URL = 'https://desk.example.com/';
});
afterEach(() => {
  process.env = { ...env };
});

describe('the message of an interrupt', () => {
  it('says what waits, with the arguments, the context, the expiry and three links', () => {
    const message = renderInterruptMessage(notice(), { recipient: 'email:desk@example.com' });
    expect(message.subject).toBe('Approval needed: Refund $120.00 on order A-1001');
    expect(message.text).toContain('"amount": 120');
    expect(message.text).toContain('Agent: helpdesk');
    expect(message.text).toContain('Expires: Thu, 01 Jan 2099 00:00:00 GMT (then it is rejected)');
    expect(message.links.studio).toBe('https://desk.example.com/studio?decision=int_1');
    expect(message.links.approve).toMatch(/^https:\/\/desk\.example\.com\/approve\//);
    expect(verifyLink(tokenOf(message.links.approve!))).toMatchObject({ interruptId: 'int_1', action: 'approve', recipient: 'email:desk@example.com' });
    expect(verifyLink(tokenOf(message.links.reject!))).toMatchObject({ action: 'reject', expiresAt: Date.parse('2099-01-01') / 1000 });
    expect(message.html).toContain('>Approve</a>');
    expect(message.html).toContain('&#34;orderId&#34;: &#34;A-1001&#34;');
  });

  it('escapes what the model wrote into the HTML', () => {
    const message = renderInterruptMessage(notice('interrupt.opened', { ...record, message: '<img src=x onerror=alert(1)>' }), { recipient: 'slack' });
    expect(message.html).not.toContain('<img');
  });

  it('words a reminder and an escalation apart, with the same links; a question gets Studio only', () => {
    expect(renderInterruptMessage(notice('interrupt.reminder', { interrupt: record }), { recipient: 'slack' }).subject).toBe(
      'Reminder: approval needed: Refund $120.00 on order A-1001',
    );
    expect(renderInterruptMessage(notice('interrupt.escalated'), { recipient: 'slack' }).subject).toMatch(/^Escalated: /);
    const question = renderInterruptMessage(notice('interrupt.opened', { ...record, reason: 'input_required' }), { recipient: 'slack' });
    expect(question.links).toEqual({ studio: 'https://desk.example.com/studio?decision=int_1' });
    expect(() => renderInterruptMessage(notice('run.finished', {}), { recipient: 'slack' })).toThrow(/not about an interrupt/);
  });
});

describe('the email channel without SMTP', () => {
  it('builds the whole message for each recipient, with links of their own; keeps no link in memory, and in open dev mode writes it to the mailbox', async () => {
    delete process.env.STACKBONE_SMTP_URL;
    const mailbox = await mkdtemp(path.join(os.tmpdir(), 'stackbone-mailbox-'));
    const channel = emailChannel({ from: 'Desk <desk-bot@example.com>', mailbox });
    const first = await channel.deliver(notice(), 'desk@example.com');
    const other = await channel.deliver(notice(), 'boss@example.com');
    expect(first).toMatchObject({ to: 'desk@example.com', delivery: 'preview', subject: 'Approval needed: Refund $120.00 on order A-1001' });
    expect(first.raw).toContain('Subject: Approval needed: Refund $120.00 on order A-1001');
    expect(first.raw).toContain('X-Stackbone-Notice: msg_1');
    const approveOf = (text: string) => tokenOf(/Approve: (\S+)/.exec(text)![1]!);
    expect(verifyLink(approveOf(first.text)).recipient).toBe('email:desk@example.com');
    expect(verifyLink(approveOf(other.text)).recipient).toBe('email:boss@example.com');
    // What Studio may show of it: the subject and that it decides, never a token.
    const kept = keptEmails().slice(-2);
    expect(kept.map((email) => email.to)).toEqual(['desk@example.com', 'boss@example.com']);
    expect(kept[0]).toMatchObject({ subject: 'Approval needed: Refund $120.00 on order A-1001', decides: true });
    expect(JSON.stringify(kept)).not.toContain(tokenOf(first.links.approve!));
    // The machine's own mailbox holds the message as its recipient gets it.
    const written = await readFile(kept[0]!.file!, 'utf8');
    expect(written).toContain('X-Stackbone-Notice: msg_1');
    expect((await readdir(mailbox)).sort()).toHaveLength(4);
  });
});

describe('the Slack channel', () => {
  it('posts text and blocks with URL buttons to the page and to Studio; a failed answer throws', async () => {
    const bodies: unknown[] = [];
    let status = 200;
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bodies.push(JSON.parse(body));
        response.writeHead(status).end(status === 200 ? 'ok' : 'invalid_payload');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T/B/X`;
    try {
      await slackChannel().send(notice(), url);
      const sent = bodies[0] as { text: string; blocks: { type: string; elements?: { url?: string; text?: { text: string } }[] }[] };
      expect(sent.text).toContain('Approval needed: Refund $120.00 on order A-1001');
      const buttons = sent.blocks.find((block) => block.type === 'actions')!.elements!;
      expect(buttons.map((button) => button.text!.text)).toEqual(['Approve', 'Reject', 'Open in Studio']);
      expect(verifyLink(tokenOf(buttons[0]!.url!))).toMatchObject({ action: 'approve', recipient: 'slack' });
      status = 400;
      await expect(slackChannel().send(notice(), url)).rejects.toThrow(/answered 400: invalid_payload/);
    } finally {
      server.close();
    }
  });
});

describe('notification targets', () => {
  const call = (name: string) => tool({ description: name, inputSchema: z.object({}), execute: async () => ({}) });
  const tools = { refundPayment: call('refund'), closeTicket: call('close') };
  it('add the env, the agent and the tool, each once; a tool set to false is told to nobody', () => {
    process.env.STACKBONE_NOTIFY_EMAIL = 'desk@example.com, ops@example.com';
    process.env.STACKBONE_SLACK_WEBHOOK_URL = 'https://hooks.slack.com/services/T/B/env';
    const agent = defineDeepAgent({
      name: 'routed',
      model: 'openai/gpt-4o-mini',
      tools,
      notify: {
        email: ['Desk@example.com', 'lead@example.com'],
        slack: 'https://hooks.slack.com/services/T/B/agent',
        tools: { refundPayment: { email: 'finance@example.com' }, closeTicket: false },
      },
    });
    expect(notificationTargets(agent, notice())).toEqual({
      email: ['desk@example.com', 'ops@example.com', 'lead@example.com', 'finance@example.com'],
      slack: ['https://hooks.slack.com/services/T/B/env', 'https://hooks.slack.com/services/T/B/agent'],
    });
    expect(notificationTargets(agent, notice('interrupt.opened', { ...record, toolName: 'closeTicket' }))).toEqual({ email: [], slack: [] });
    expect(notificationTargets(agent, notice('run.finished', {}))).toEqual({ email: [], slack: [] });
  });

  it('tell an escalation to whom it escalates to (by address), and send a reminder where the request went', () => {
    process.env.STACKBONE_NOTIFY_EMAIL = 'desk@example.com';
    const agent = defineDeepAgent({ name: 'routed', model: 'openai/gpt-4o-mini', tools });
    const expiresAt = '2030-01-01T00:00:00.000Z';
    const escalation = { type: 'interrupt_escalated' as const, interruptId: record.id, level: 1, expiresAt, to: ['lead@example.com', 'key:ops'] };
    // A log written before escalations carried their request tells nobody: there is nothing to show.
    expect(notableEvents('s1', 7, [escalation])).toEqual([]);
    const [escalated] = notableEvents('s1', 7, [{ ...escalation, interrupt: { ...record, expiresAt } }]);
    const told = { ...notice(), id: escalated!.id, type: escalated!.type, data: escalated!.data };
    expect(told.type).toBe('interrupt.escalated');
    expect(notificationTargets(agent, told).email).toEqual(['desk@example.com', 'lead@example.com']);
    expect(renderInterruptMessage(told, { recipient: 'email:lead@example.com' }).expiresAt).toBe(expiresAt);
    const [reminder] = notableEvents('s1', 8, [{ type: 'interrupt_reminded', interruptId: record.id, interrupt: record }]);
    expect(reminder).toMatchObject({ type: 'interrupt.reminder', data: { interrupt: { id: record.id } } });
    expect(notificationTargets(agent, { ...notice(), type: 'interrupt.reminder', data: reminder!.data }).email).toEqual(['desk@example.com']);
  });

  it('are checked when the agent is defined', () => {
    const define = (notify: object) => () => defineDeepAgent({ name: 'bad', model: 'openai/gpt-4o-mini', tools, notify });
    expect(define({ email: 'desk at example.com' })).toThrow('Agent "bad": notify.email has "desk at example.com", which is not an email address');
    expect(define({ slack: 'hooks.slack.com' })).toThrow('notify.slack must be an incoming-webhook URL');
    expect(define({ tools: { sendInvoice: { email: 'x@y.z' } } })).toThrow('notify.tools names "sendInvoice", which is not one of its tools');
    expect(define({ mail: 'x@y.z' })).toThrow('notify has no "mail"');
  });
});
