// The email and Slack channels as the outbox knows them (docs/approvals.md, "Notifications and
// one-click links"): their targets are whom notificationTargets names for the notice. A Slack
// incoming-webhook URL is a secret, so its delivery's target is the URL's origin and a short hash
// of it, and the URL is found again among the configured ones when the notice is sent.
import { createHash } from 'node:crypto';
import type { ChannelEntry } from './channel-entry';
import { emailChannel } from './email-channel';
import { slackChannel } from './slack-channel';
import { notificationTargets } from './targets';

export const emailEntry: ChannelEntry = {
  name: 'email',
  targetsFor: (notice, agent) => notificationTargets(agent, notice).email,
  // Built per send: STACKBONE_SMTP_URL is read as it is now.
  send: (notice, to) => emailChannel().send(notice, to),
};

/** What Studio shows of a Slack webhook: its origin and a hash that tells two apart. */
function slackTarget(url: string): string {
  const origin = URL.parse(url)?.origin ?? 'invalid Slack webhook URL';
  return `${origin} #${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;
}

export const slackEntry: ChannelEntry = {
  name: 'slack',
  targetsFor: (notice, agent) => notificationTargets(agent, notice).slack.map(slackTarget),
  async send(notice, target, agent) {
    const url = notificationTargets(agent, notice).slack.find((candidate) => slackTarget(candidate) === target);
    if (!url) throw new Error(`The Slack webhook ${target} is no longer configured for this notice.`);
    await slackChannel().send(notice, url);
  },
};
