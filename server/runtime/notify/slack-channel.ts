// The Slack channel (docs/approvals.md, "Notifications and one-click links"): an interrupt
// notice as a message to a Slack-compatible incoming webhook — `text` for notifications and
// clients without blocks, and Block Kit `blocks`: the call, its arguments as they will run, and
// URL buttons to the confirmation page (Approve, Reject) and to Studio. The links are minted for
// `slack`: whoever in the channel follows one, the page asks them to confirm.
import type { Channel } from './notice';
import { INTERRUPT_NOTICES, renderInterruptMessage, type InterruptMessage } from './interrupt-message';

/** The incoming webhook every agent's notices go to: STACKBONE_SLACK_WEBHOOK_URL (a secret: whoever holds it posts to the channel). */
export function configuredSlackWebhook(): string | undefined {
  return process.env.STACKBONE_SLACK_WEBHOOK_URL?.trim() || undefined;
}

interface SlackChannelOptions {
  /** The origin of the links; default STACKBONE_PUBLIC_URL, else VERCEL_URL, else this process's port. */
  baseUrl?: string;
  /** How long one POST may take (ms); default 10 s. */
  timeoutMs?: number;
}

/** Slack's section text is at most 3,000 characters. */
const SECTION_CHARS = 2900;

/** The webhook body of a message: `text` and Block Kit `blocks`. */
function slackPayload(message: InterruptMessage): { text: string; blocks: object[] } {
  const args = JSON.stringify(message.interrupt.input ?? null, null, 2);
  const clipped = args.length > SECTION_CHARS ? `${args.slice(0, SECTION_CHARS)}…` : args;
  const button = (text: string, url: string, style?: 'primary' | 'danger') => ({
    type: 'button',
    text: { type: 'plain_text', text },
    url,
    ...(style ? { style } : {}),
  });
  return {
    text: message.headline,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(message.subject)}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: `\`${message.interrupt.toolName}\` with the arguments it will run with:\n\`\`\`${clipped}\`\`\`` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(message.context.join(' · ')) }] },
      {
        type: 'actions',
        elements: [
          ...(message.links.approve ? [button('Approve', message.links.approve, 'primary')] : []),
          ...(message.links.reject ? [button('Reject', message.links.reject, 'danger')] : []),
          button('Open in Studio', message.links.studio),
        ],
      },
    ],
  };
}

/** Slack's three control characters in text, escaped as it asks. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The Slack channel: `send(notice, webhookUrl)` posts an interrupt notice (opened, reminder,
 * escalated) to one incoming webhook. An answer other than 2xx, or no answer in time, throws, so
 * the outbox tries again. The target is the webhook URL, a secret: show its origin only.
 */
export function slackChannel(options: SlackChannelOptions = {}): Channel & { name: 'slack' } {
  return {
    name: 'slack',
    async send(notice, webhookUrl) {
      if (!INTERRUPT_NOTICES.includes(notice.type)) throw new Error(`The Slack channel sends interrupt notices only, not ${notice.type}.`);
      const message = renderInterruptMessage(notice, { recipient: 'slack', ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(slackPayload(message)),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) {
        const said = (await response.text().catch(() => '')).slice(0, 200);
        throw new Error(`Slack webhook at ${new URL(webhookUrl).origin} answered ${response.status}${said ? `: ${said}` : ''}`);
      }
    },
  };
}
