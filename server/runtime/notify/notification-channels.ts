// The email and Slack channels as the outbox knows them (docs/approvals.md, "Notifications and
// one-click links"): their targets are whom notificationTargets names for the notice. A Slack
// incoming-webhook URL is a secret, so its delivery's target is the URL's origin and a short hash
// of it, and the URL is found again among the configured ones when the notice is sent.
import { createHash } from 'node:crypto';
import type { ChannelEntry, People } from './channel-entry';
import { emailChannel } from './email-channel';
import { INTERRUPT_NOTICES, noticeInterrupt } from './interrupt-message';
import type { Notice } from './notice';
import { slackChannel } from './slack-channel';
import { notificationTargets, unique } from './targets';

export const emailEntry: ChannelEntry = {
  name: 'email',
  // The configured addresses, and the signed-up people a list of approvers names by role (docs/users-and-roles.md).
  targetsFor: async (notice, agent, people) =>
    unique([...notificationTargets(agent, notice).email, ...(await approverAddresses(notice, people))], (address) => address.toLowerCase()),
  // Built per send: STACKBONE_SMTP_URL is read as it is now. A signed-up recipient's links vote as them.
  send: async (notice, to, _agent, people) => emailChannel().send(notice, to, await people.personByAddress(to)),
};

/** The addresses of the people an interrupt notice's approvers list names by role or as `members`. */
async function approverAddresses(notice: Notice, people: People): Promise<string[]> {
  if (!INTERRUPT_NOTICES.includes(notice.type)) return [];
  const { approvers } = noticeInterrupt(notice);
  return Array.isArray(approvers) ? people.addressesOfApprovers(approvers) : [];
}

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
