// What the world outside a session is told about it (docs/approvals.md): a notice is one of the
// log's notable events — an interrupt opened, decided, expired or escalated, a reminder that one
// is about to expire, a run that finished or failed — delivered to each configured channel from a
// durable outbox, at least once, under one id that stays the same across retries and processes.
// The records live below the store (server/store/notices.ts), which writes them with the append.
import type { ChannelName, Notice } from '../../store/notices';

export type { Notice, NoticeType } from '../../store/notices';

/** A channel sends one notice to one target; a throw is a failed attempt, retried with backoff. */
export interface Channel {
  name: ChannelName;
  send(notice: Notice, target: string): Promise<void>;
}
