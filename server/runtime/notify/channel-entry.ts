// A channel as the outbox knows it (docs/approvals.md, "Decision webhooks"): its name, the targets
// a notice goes to on it (none: the channel does not take it, or is not configured), and how it
// sends one. channels.ts lists the entries this server delivers through.
import type { DeepAgent } from '../../define';
import type { Channel, Notice } from './notice';

export interface ChannelEntry {
  name: Channel['name'];
  /** Where `notice` goes on this channel: addresses or URL origins, never a secret. `agent`: the session's agent, if this server has it. */
  targetsFor(notice: Notice, agent: DeepAgent | undefined): string[];
  /** Sends `notice` to one of its targets; a throw is a failed attempt, tried again later. */
  send(notice: Notice, target: string, agent: DeepAgent | undefined): Promise<void>;
}
