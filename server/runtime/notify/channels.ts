// The channels a notice can go out through (docs/approvals.md, "Decision webhooks" and "Notifications and one-click links"). The outbox
// (outbox.ts) fans every notice out to the targets of every entry; each entry decides from its own
// configuration what it takes. A channel is added with one line in CHANNELS.
import type { DeepAgent } from '../../authoring';
import type { DeliveryTarget } from '../../store/types';
import type { ChannelEntry, People } from './channel-entry';
import type { Notice } from './notice';
import { emailEntry, slackEntry } from './notification-channels';
import { webhookChannel } from './webhook-channel';

/** Every channel this server delivers through. */
export const CHANNELS: readonly ChannelEntry[] = [webhookChannel, emailEntry, slackEntry];

/** The deliveries a notice needs: one per channel target, each once. */
export async function deliveryTargets(
  notice: Notice,
  agent: DeepAgent | undefined,
  people: People,
  channels: readonly ChannelEntry[] = CHANNELS,
): Promise<DeliveryTarget[]> {
  const perChannel = await Promise.all(
    channels.map(async (entry) => [...new Set(await entry.targetsFor(notice, agent, people))].map((target) => ({ channel: entry.name, target }))),
  );
  return perChannel.flat();
}
