// What a person is sent about an interrupt (docs/approvals.md, "Notifications and one-click
// links"): a subject, a text and an HTML body saying which call waits, with its arguments as
// they will run, the agent and session, when it expires, and three links — Approve and Reject
// (signed, one-time, to the confirmation page, which decides nothing until its form is sent)
// and Open in Studio. Approve and Reject only for a recipient whose link may decide the call (the
// person it is bound to may: docs/approvals.md, "A link counts as a person"); the others are told
// for their information, with Studio's link alone. The email and Slack channels render from here.
import type { InterruptRecord } from '../../store/pauses';
import type { JsonObject } from '../../store/messages';
import { ownOrigin } from '../../config/own-origin';
import type { Notice, NoticeType } from './notice';
import type { Person } from '../../store/types';
import { sessionKeyOf } from '../session';
import { argumentsHash, linkExpiry, signLink, type LinkAction } from '../../credentials/link-token';
import { linkMayDecide } from '../decisions';

/** The notices a person is sent a message about: an interrupt that waits for them. */
export const INTERRUPT_NOTICES: readonly NoticeType[] = ['interrupt.opened', 'interrupt.reminder', 'interrupt.escalated'];

interface InterruptLinks {
  /**
   * Signed, one-time; absent for a question (input_required), which is answered in Studio, and
   * for a recipient whose link may not decide the call (the message is for their information).
   */
  approve?: string;
  reject?: string;
  /** `/studio?decision=<id>`: the request among the others in Studio, for whoever holds a key. */
  studio: string;
}

export interface InterruptMessage {
  subject: string;
  /** One line: what Slack shows in a notification and a client without blocks. */
  headline: string;
  text: string;
  html: string;
  /** The agent, the session, the tool and the expiry, a line each. */
  context: string[];
  interrupt: InterruptRecord;
  links: InterruptLinks;
  /** When the request expires (ISO), when it does. */
  expiresAt?: string;
}

/**
 * The interrupt a notice is about: its `data` is the interrupt record, or holds it under
 * `interrupt` (a reminder or an escalation carrying more beside it).
 */
export function noticeInterrupt(notice: Notice): InterruptRecord {
  const data: JsonObject = notice.data;
  const candidate = isRecord(data.interrupt) ? data.interrupt : data;
  if (typeof candidate.id !== 'string' || typeof candidate.toolName !== 'string' || typeof candidate.message !== 'string') {
    throw new Error(`Notice ${notice.id} (${notice.type}) carries no interrupt record in its data.`);
  }
  return candidate as unknown as InterruptRecord;
}

/** The signed links of an interrupt for one recipient (`email:desk@example.com`, `slack`) whose link may decide it. */
function interruptLinks(
  interrupt: InterruptRecord,
  recipient: string,
  decides: boolean,
  baseUrl: string = ownOrigin(),
  now: Date = new Date(),
): InterruptLinks {
  const link = (action: LinkAction) =>
    `${baseUrl}/approve/${signLink({ interruptId: interrupt.id, action, argsHash: argumentsHash(interrupt.input), expiresAt: linkExpiry(interrupt.expiresAt, now), recipient })}`;
  const studio = `${baseUrl}/studio?decision=${encodeURIComponent(interrupt.id)}`;
  // A question needs an answer a link cannot carry; withdrawing is the session owner's.
  if (interrupt.reason === 'input_required' || !decides) return { studio };
  return { approve: link('approve'), reject: link('reject'), studio };
}

/** The subject of a notice, from the interrupt's own line ("Send invoice inv_7 for $120.00"). */
function subjectOf(type: NoticeType, interrupt: InterruptRecord, forInformation: boolean): string {
  const line = oneLine(interrupt.message, 140);
  const asks = interrupt.reason === 'input_required' ? 'Answer needed' : forInformation ? 'For your information: approval requested' : 'Approval needed';
  if (type === 'interrupt.reminder') return `Reminder: ${asks.toLowerCase()}: ${line}`;
  if (type === 'interrupt.escalated') return `Escalated: ${asks.toLowerCase()}: ${line}`;
  return `${asks}: ${line}`;
}

interface RenderOptions {
  /** Whom the links are minted for: `email:desk@example.com`, `slack`. */
  recipient: string;
  /** The signed-up user the recipient's address is (docs/users-and-roles.md): their links vote as them. */
  person?: Person | null;
  /** The origin of the links; default STACKBONE_PUBLIC_URL, else VERCEL_URL, else this process's port. */
  baseUrl?: string;
  now?: Date;
}

/** The message of an interrupt notice (opened, reminder, escalated) for one recipient. */
export function renderInterruptMessage(notice: Notice, options: RenderOptions): InterruptMessage {
  if (!INTERRUPT_NOTICES.includes(notice.type)) throw new Error(`A ${notice.type} notice is not about an interrupt that waits.`);
  const interrupt = noticeInterrupt(notice);
  const forInformation = interrupt.reason === 'tool_call' && !linkMayDecide(interrupt, options.recipient, notice.ownerId, options.person);
  const links = interruptLinks(interrupt, options.recipient, !forInformation, options.baseUrl, options.now);
  const subject = subjectOf(notice.type, interrupt, forInformation);
  const args = JSON.stringify(interrupt.input ?? null, null, 2);
  const expires = interrupt.expiresAt ? new Date(interrupt.expiresAt).toUTCString() : undefined;
  const lead = forInformation
    ? `For your information: this request is decided by ${whoDecides(interrupt)}, so this message carries no link that decides it.`
    : notice.type === 'interrupt.reminder'
      ? 'This request still waits for a decision and expires soon.'
      : notice.type === 'interrupt.escalated'
        ? 'This request was escalated to you: nobody decided it in time.'
        : interrupt.reason === 'input_required'
          ? 'An agent asks a question and waits for the answer.'
          : 'An agent wants to make this call and waits for a decision.';
  const context = [
    `Agent: ${notice.agent}${interrupt.agent && interrupt.agent !== notice.agent ? ` (in its helper ${interrupt.agent})` : ''}`,
    // The session as its owner names it, as the webhook does: the store's id starts with the owner's (a key's hash, a browser's id).
    `Session: ${sessionKeyOf(notice.sessionId)}`,
    `Tool: ${interrupt.toolName}`,
    ...(expires ? [`Expires: ${expires}${interrupt.onExpire === 'approve' ? ' (then it is approved)' : ' (then it is rejected)'}`] : []),
  ];
  // What the tool looked up for the approver (docs/hitl.md, "Approval context"), as the card shows it.
  const found = interrupt.context
    ? [...interrupt.context.facts.map((fact) => `${fact.label}: ${fact.value}`), ...(interrupt.context.risk ? [`Note: ${interrupt.context.risk}`] : [])]
    : [];
  const text = [
    subject,
    '',
    lead,
    '',
    oneLine(interrupt.message, 500),
    ...(interrupt.description && interrupt.description !== interrupt.message ? [interrupt.description] : []),
    ...(found.length ? ['', ...found] : []),
    '',
    'Arguments as they will run:',
    args,
    '',
    ...context,
    '',
    ...(links.approve ? [`Approve: ${links.approve}`] : []),
    ...(links.reject ? [`Reject: ${links.reject}`] : []),
    `Open in Studio: ${links.studio}`,
    '',
    footnote(links, forInformation),
  ].join('\n');
  const button = (href: string, label: string, colour: string) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;margin:0 8px 8px 0;border-radius:6px;background:${colour};color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(label)}</a>`;
  const html = [
    '<!doctype html><html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111827;line-height:1.5;max-width:640px;margin:0 auto;padding:16px">',
    `<p style="color:#6b7280;margin:0 0 8px">${escapeHtml(lead)}</p>`,
    `<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(oneLine(interrupt.message, 500))}</h1>`,
    interrupt.description && interrupt.description !== interrupt.message ? `<p>${escapeHtml(interrupt.description)}</p>` : '',
    interrupt.context?.facts.length
      ? `<table style="border-collapse:collapse;margin:0 0 8px">${interrupt.context.facts
          .map(
            (fact) =>
              `<tr><td style="color:#6b7280;padding:2px 16px 2px 0">${escapeHtml(fact.label)}</td><td style="font-weight:600">${escapeHtml(fact.value)}</td></tr>`,
          )
          .join('')}</table>`
      : '',
    interrupt.context?.risk ? `<p style="background:#fef3c7;border-radius:6px;padding:8px 10px;color:#92400e">${escapeHtml(interrupt.context.risk)}</p>` : '',
    '<p style="margin:12px 0 4px;font-weight:600">Arguments as they will run</p>',
    `<pre style="background:#f3f4f6;border-radius:6px;padding:10px;white-space:pre-wrap;word-break:break-word;font-size:13px">${escapeHtml(args)}</pre>`,
    `<ul style="padding-left:18px;color:#374151">${context.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    '<p style="margin:16px 0 8px">',
    links.approve ? button(links.approve, 'Approve', '#15803d') : '',
    links.reject ? button(links.reject, 'Reject', '#b91c1c') : '',
    button(links.studio, 'Open in Studio', '#374151'),
    '</p>',
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(footnote(links, forInformation))}</p>`,
    '</body></html>',
  ].join('');
  return {
    subject,
    headline: `${subject} (${notice.agent})`,
    text,
    html,
    context,
    interrupt,
    links,
    ...(interrupt.expiresAt ? { expiresAt: interrupt.expiresAt } : {}),
  };
}

/** The last line of a message: how its links work, or where the request is decided. */
function footnote(links: InterruptLinks, forInformation: boolean): string {
  if (links.approve) {
    return 'Approve and Reject open a page that shows the call and asks you to confirm; nothing is decided until you press its button. Each link works once.';
  }
  return forInformation ? 'Those who decide it do so in Studio or with the CLI.' : 'Answer it in Studio.';
}

/** Who decides a call, in words for a message: its named approvers, a key holder, or the session's owner. */
function whoDecides(interrupt: InterruptRecord): string {
  const quorum = interrupt.quorum && interrupt.quorum > 1 ? `${interrupt.quorum} approvers` : undefined;
  if (Array.isArray(interrupt.approvers)) return `${quorum ?? 'an approver'} from ${interrupt.approvers.join(', ')}`;
  if (interrupt.approvers === 'key-holders') return quorum ? `${quorum} with an API key` : 'someone with an API key';
  return 'the person who asked';
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
