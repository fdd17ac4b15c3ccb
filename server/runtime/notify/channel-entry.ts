// A channel as the outbox knows it (docs/approvals.md, "Decision webhooks"): its name, the targets
// a notice goes to on it (none: the channel does not take it, or is not configured), and how it
// sends one. channels.ts lists the entries this server delivers through.
import type { DeepAgent } from '../../authoring';
import type { EventStore } from '../../store/types';
import type { Channel, Notice } from './notice';

/** Who signed up, for a channel that mails the people an approval names (docs/users-and-roles.md, "Links belong to people"): the store. */
export type People = Pick<EventStore, 'personByAddress' | 'addressesOfApprovers'>;

export interface ChannelEntry {
  name: Channel['name'];
  /** Where `notice` goes on this channel: addresses or URL origins, never a secret. `agent`: the session's agent, if this server has it. */
  targetsFor(notice: Notice, agent: DeepAgent | undefined, people: People): string[] | Promise<string[]>;
  /** Sends `notice` to one of its targets; a throw is a failed attempt, tried again later. */
  send(notice: Notice, target: string, agent: DeepAgent | undefined, people: People): Promise<void>;
}
