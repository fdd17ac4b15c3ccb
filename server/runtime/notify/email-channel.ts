// The email channel (docs/approvals.md, "Notifications and one-click links"): one message per
// recipient, each with links minted for that recipient, sent over SMTP (STACKBONE_SMTP_URL).
// Without an SMTP server the message is built all the same and not sent. What Studio may show of
// it is its subject and whether it carried links that decide, never the links: a link is its
// recipient's alone (docs/security.md, "Links and deliveries"). In open dev mode — one machine,
// `npm run dev` and the demo — the message is also written to .data/mail/, the machine's own
// mailbox, so the person at it can open what a desk would receive and act as the desk.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { isOpenDevMode } from '../../credentials/open-dev-mode';
import type { Person } from '../../store/types';
import type { Channel, Notice } from './notice';
import { INTERRUPT_NOTICES, renderInterruptMessage, type InterruptMessage } from './interrupt-message';
import { setting } from '../../config';

interface EmailChannelOptions {
  /** `smtp://user:pass@host:587`, `smtps://…`; default STACKBONE_SMTP_URL. None: previews only. */
  smtpUrl?: string;
  /** The sender; default STACKBONE_EMAIL_FROM, else `Stackbone <stackbone@localhost>`. */
  from?: string;
  /** The origin of the links; default STACKBONE_PUBLIC_URL, else VERCEL_URL, else this process's port. */
  baseUrl?: string;
  /** Open dev mode's mailbox for messages not sent; default `.data/mail` under the server's folder. */
  mailbox?: string;
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
  /** `smtp`: handed to the SMTP server; `preview`: no SMTP server is configured, not sent. */
  delivery: 'smtp' | 'preview';
  at: string;
}

/** What this process keeps of a message it did not send (no SMTP server): never its links. */
export interface KeptEmail {
  noticeId: string;
  to: string;
  subject: string;
  /** Whether it carried Approve and Reject links (else it was for the recipient's information). */
  decides: boolean;
  /** Where open dev mode wrote it, relative to the server's folder: `.data/mail/<name>.eml` (and `.html`). */
  file?: string;
  at: string;
}

/** Who the app's mail comes from: STACKBONE_EMAIL_FROM, else `Stackbone <stackbone@localhost>` (approvals' and accounts' mail alike). */
export function emailSender(): string {
  return setting('STACKBONE_EMAIL_FROM') ?? 'Stackbone <stackbone@localhost>';
}

/** The email recipients configured for every agent: STACKBONE_NOTIFY_EMAIL, comma-separated. */
export function configuredEmailRecipients(): string[] {
  return (setting('STACKBONE_NOTIFY_EMAIL') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}

/** How many unsent messages a process keeps, newest last; open dev mode's mailbox keeps as many. */
const KEPT_EMAILS = 50;
/** Open dev mode's mailbox, under the folder the server runs in (beside the SQLite file's .data/). */
const MAILBOX = path.join('.data', 'mail');
// On globalThis: Next bundles routes and pages separately; the list is the process's.
const kept = globalThis as typeof globalThis & { __stackboneKeptEmails?: KeptEmail[] };

/** The messages this process built lately and did not send, newest last: what Studio shows when no SMTP server is configured. */
export function keptEmails(): KeptEmail[] {
  return [...(kept.__stackboneKeptEmails ?? [])];
}

function keep(email: KeptEmail): void {
  const list = (kept.__stackboneKeptEmails ??= []);
  list.push(email);
  if (list.length > KEPT_EMAILS) list.splice(0, list.length - KEPT_EMAILS);
}

/**
 * Writes an unsent message into open dev mode's mailbox: the whole message (`.eml`, for a mail
 * client) and its HTML part (`.html`, for a browser). Keeps the newest KEPT_EMAILS. Returns the
 * `.eml` file's path; undefined when the folder cannot be written (the message is still kept).
 */
async function writeToMailbox(preview: EmailPreview, mailbox: string): Promise<string | undefined> {
  const name = `${preview.at.replace(/[:.]/g, '-')}-${preview.to.toLowerCase().replace(/[^a-z0-9@.+-]/g, '_')}-${preview.noticeId.slice(-12)}`;
  try {
    await mkdir(mailbox, { recursive: true });
    await writeFile(path.join(mailbox, `${name}.eml`), preview.raw);
    await writeFile(path.join(mailbox, `${name}.html`), preview.html);
    const messages = (await readdir(mailbox)).filter((file) => file.endsWith('.eml')).sort();
    for (const old of messages.slice(0, Math.max(0, messages.length - KEPT_EMAILS))) {
      const base = old.slice(0, -'.eml'.length);
      await Promise.all([rm(path.join(mailbox, old), { force: true }), rm(path.join(mailbox, `${base}.html`), { force: true })]);
    }
    return path.join(mailbox, `${name}.eml`);
  } catch (error) {
    console.warn(`[stackbone] The message to ${preview.to} could not be written to ${mailbox}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The message of a notice for one address: the links in it are minted for `email:<address>`, and
 * decide as `person` when the address is a signed-up user's (docs/users-and-roles.md).
 */
export function renderEmail(notice: Notice, to: string, options: Pick<EmailChannelOptions, 'baseUrl'> = {}, person?: Person | null): InterruptMessage {
  return renderInterruptMessage(notice, { recipient: `email:${to.toLowerCase()}`, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), person });
}

interface EmailChannel extends Channel {
  name: 'email';
  /** Sends (or, without SMTP, keeps) the message and answers it as built. */
  deliver(notice: Notice, to: string, person?: Person | null): Promise<EmailPreview>;
  send(notice: Notice, to: string, person?: Person | null): Promise<void>;
}

/**
 * The email channel: `send(notice, address)` mails one recipient the message of an interrupt
 * notice (opened, reminder, escalated); other notices are not mailed. A refused or failed SMTP
 * transaction throws, so the outbox tries again.
 */
export function emailChannel(options: EmailChannelOptions = {}): EmailChannel {
  const smtpUrl = options.smtpUrl ?? setting('STACKBONE_SMTP_URL');
  const from = options.from ?? emailSender();
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  // A stream transport builds the exact message SMTP carries, for the preview.
  const preview = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  async function deliver(notice: Notice, to: string, person?: Person | null): Promise<EmailPreview> {
    if (!INTERRUPT_NOTICES.includes(notice.type)) throw new Error(`The email channel sends interrupt notices only, not ${notice.type}.`);
    const message = renderEmail(notice, to, options, person);
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
    if (!smtpUrl) {
      const file = isOpenDevMode() ? await writeToMailbox(record, options.mailbox ?? MAILBOX) : undefined;
      keep({ noticeId: notice.id, to, subject: message.subject, decides: message.links.approve !== undefined, ...(file ? { file } : {}), at: record.at });
    }
    return record;
  }

  return {
    name: 'email',
    deliver,
    async send(notice, to, person) {
      await deliver(notice, to, person);
    },
  };
}
