// The Slack channel (docs/approvals.md, "Notifications and one-click links"): an interrupt
// notice as a message to a Slack-compatible incoming webhook, its body built by slack-payload.ts
// (the call, its arguments as they will run, escaped, and URL buttons to the confirmation page
// and to Studio). The links are minted for `slack`: whoever in the channel follows one, the page
// asks them to confirm.
import type { Channel } from './notice';
import { INTERRUPT_NOTICES, renderInterruptMessage } from './interrupt-message';
import { slackPayload } from './slack-payload';
import { setting } from '../../config';

/** The incoming webhook every agent's notices go to: STACKBONE_SLACK_WEBHOOK_URL (a secret: whoever holds it posts to the channel). */
export function configuredSlackWebhook(): string | undefined {
  return setting('STACKBONE_SLACK_WEBHOOK_URL');
}

interface SlackChannelOptions {
  /** The origin of the links; default STACKBONE_PUBLIC_URL, else VERCEL_URL, else this process's port. */
  baseUrl?: string;
  /** How long one POST may take (ms); default 10 s. */
  timeoutMs?: number;
}

/**
 * The Slack channel: `send(notice, webhookUrl)` posts an interrupt notice (opened, reminder,
 * escalated) to one incoming webhook. An answer other than 2xx (a redirect too), or no answer in
 * time, throws, so the outbox tries again. The target is the webhook URL, a secret: show its origin only.
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
        // A redirect is not a delivery: the receiver is the configured webhook, not where it points (a 3xx throws below).
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (response.status < 200 || response.status > 299) {
        const said = (await response.text().catch(() => '')).slice(0, 200);
        throw new Error(`Slack webhook at ${new URL(webhookUrl).origin} answered ${response.status}${said ? `: ${said}` : ''}`);
      }
      await response.body?.cancel();
    },
  };
}
