// What the world outside a session is told about it (docs/approvals.md): a notice is one of the
// log's notable events — an interrupt opened, decided, expired or escalated, a reminder that one
// is about to expire, a run that finished or failed — delivered to each configured channel from a
// durable outbox, at least once, under one id that stays the same across retries and processes.
import type { JsonObject } from '../../events';

export type NoticeType =
  | 'interrupt.opened'
  | 'interrupt.decided'
  | 'interrupt.expired'
  | 'interrupt.escalated'
  | 'interrupt.reminder'
  | 'run.finished'
  | 'run.failed';

/** Where a notice goes: a signed HTTP webhook (Standard Webhooks), an email, a Slack-compatible incoming webhook. */
export type ChannelName = 'webhook' | 'email' | 'slack';

export interface Notice {
  /** The Standard Webhooks `webhook-id` (`msg_…`): the receiver's idempotency key, the same on every retry. */
  id: string;
  type: NoticeType;
  sessionId: string;
  /** The session's agent (the root agent's name). */
  agent: string;
  /** The session's owner. */
  ownerId: string;
  /** When the event was appended (ISO). */
  at: string;
  /** The event's own data: the interrupt record, the decision, the run's outcome. */
  data: JsonObject;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failing' | 'gave_up' | 'skipped';

/** One notice on its way to one channel, with its retry state (shown in Studio). */
export interface DeliveryRecord {
  id: string;
  noticeId: string;
  noticeType: NoticeType;
  sessionId: string;
  channel: ChannelName;
  /** Where it goes: an address, a URL's origin (never a secret). */
  target: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A channel sends one notice to one target; a throw is a failed attempt, retried with backoff. */
export interface Channel {
  name: ChannelName;
  send(notice: Notice, target: string): Promise<void>;
}
