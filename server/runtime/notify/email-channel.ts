// The email channel (docs/approvals.md, "Notifications and one-click links"): one message per
// recipient, each with links minted for that recipient, sent over SMTP (STACKBONE_SMTP_URL).
// Without an SMTP server — `npm run dev`, the demo — the message is built all the same and kept
// as a preview the app can show (recentEmailPreviews), so what a desk would receive is visible.
import nodemailer from 'nodemailer';
import type { Channel, Notice } from './notice';
import { INTERRUPT_NOTICES, renderInterruptMessage, type InterruptMessage } from './interrupt-message';

interface EmailChannelOptions {
  /** `smtp://user:pass@host:587`, `smtps://…`; default STACKBONE_SMTP_URL. None: previews only. */
  smtpUrl?: string;
  /** The sender; default STACKBONE_EMAIL_FROM, else `Stackbone <stackbone@localhost>`. */
  from?: string;
  /** The origin of the links; default STACKBONE_PUBLIC_URL, else VERCEL_URL, else this process's port. */
  baseUrl?: string;
}

/** A message as built for one recipient: what was (or, without SMTP, would have been) sent. */
export interface EmailPreview {
  noticeId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The whole message as it goes over the wire (RFC 5322, with its MIME parts). */
  raw: string;
  /** Its Approve, Reject and Studio links, minted for this recipient. */
  links: InterruptMessage['links'];
  /** `smtp`: handed to the SMTP server; `preview`: no SMTP server is configured, kept here only. */
  delivery: 'smtp' | 'preview';
  at: string;
}

/** The email recipients configured for every agent: STACKBONE_NOTIFY_EMAIL, comma-separated. */
export function configuredEmailRecipients(): string[] {
  return (process.env.STACKBONE_NOTIFY_EMAIL ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}

/** How many previews a process keeps, newest last. */
const KEPT_PREVIEWS = 50;
// On globalThis: Next bundles routes and pages separately; the previews are the process's.
const kept = globalThis as typeof globalThis & { __stackboneEmailPreviews?: EmailPreview[] };

/** The messages this process built lately, newest last: what Studio shows when no SMTP server is configured. */
export function recentEmailPreviews(): EmailPreview[] {
  return [...(kept.__stackboneEmailPreviews ?? [])];
}

function keep(preview: EmailPreview): void {
  const list = (kept.__stackboneEmailPreviews ??= []);
  list.push(preview);
  if (list.length > KEPT_PREVIEWS) list.splice(0, list.length - KEPT_PREVIEWS);
}

/** The message of a notice for one address: the links in it are minted for `email:<address>`. */
export function renderEmail(notice: Notice, to: string, options: Pick<EmailChannelOptions, 'baseUrl'> = {}): InterruptMessage {
  return renderInterruptMessage(notice, { recipient: `email:${to.toLowerCase()}`, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
}

interface EmailChannel extends Channel {
  name: 'email';
  /** Sends (or, without SMTP, keeps) the message and answers it as built. */
  deliver(notice: Notice, to: string): Promise<EmailPreview>;
}

/**
 * The email channel: `send(notice, address)` mails one recipient the message of an interrupt
 * notice (opened, reminder, escalated); other notices are not mailed. A refused or failed SMTP
 * transaction throws, so the outbox tries again.
 */
export function emailChannel(options: EmailChannelOptions = {}): EmailChannel {
  const smtpUrl = options.smtpUrl ?? (process.env.STACKBONE_SMTP_URL?.trim() || undefined);
  const from = options.from ?? (process.env.STACKBONE_EMAIL_FROM?.trim() || 'Stackbone <stackbone@localhost>');
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  // A stream transport builds the exact message SMTP carries, for the preview.
  const preview = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  async function deliver(notice: Notice, to: string): Promise<EmailPreview> {
    if (!INTERRUPT_NOTICES.includes(notice.type)) throw new Error(`The email channel sends interrupt notices only, not ${notice.type}.`);
    const message = renderEmail(notice, to, options);
    const mail = {
      from,
      to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // The notice's id: a receiver that sees the same message twice (a retry) can tell.
      messageId: `<${notice.id}.${Buffer.from(to.toLowerCase()).toString('hex').slice(0, 32)}@stackbone>`,
      headers: { 'X-Stackbone-Notice': notice.id },
    };
    const built = (await preview.sendMail(mail)) as { message: Buffer };
    if (transport) await transport.sendMail(mail);
    const record: EmailPreview = {
      noticeId: notice.id,
      to,
      from,
      subject: message.subject,
      text: message.text,
      html: message.html,
      links: message.links,
      raw: built.message.toString('utf8'),
      delivery: smtpUrl ? 'smtp' : 'preview',
      at: new Date().toISOString(),
    };
    keep(record);
    return record;
  }

  return {
    name: 'email',
    deliver,
    async send(notice, to) {
      await deliver(notice, to);
    },
  };
}
