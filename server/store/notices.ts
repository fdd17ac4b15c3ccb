// What the world outside a session is told about it (docs/approvals.md, "Decision webhooks"): a
// notice is one of the log's notable events — an interrupt opened, decided, expired or escalated,
// a reminder that one is about to expire, a run that finished or failed — delivered to each
// configured channel from a durable outbox, at least once, under one id that stays the same across
// retries and processes. Below the store (it imports only events.ts): the store writes a notice in
// the transaction of the append that carries its event (server/store/types.ts, EventStore.append).
// server/runtime/notify/notice.ts is where the runtime and the channels take these names from.
import { createHash } from 'node:crypto';
import type { SessionEvent } from './events';
import type { JsonObject } from './messages';

export type NoticeType =
  'interrupt.opened' | 'interrupt.decided' | 'interrupt.expired' | 'interrupt.escalated' | 'interrupt.reminder' | 'run.finished' | 'run.failed';

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
  /** The notice's owner: whose Studio lists the delivery (docs/approvals.md, "Decision webhooks"). */
  ownerId: string;
  channel: ChannelName;
  /** Where it goes: an address, a URL's origin (never a secret). */
  target: string;
  status: DeliveryStatus;
  /** Attempts begun: a claim counts one, so an attempt cut short by a crash counts too. */
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A notice the store derives from an appended event, before it knows the session's owner and agent. */
export interface NotableEvent {
  id: string;
  type: NoticeType;
  /** The event's seq in its session's log. */
  seq: number;
  data: JsonObject;
}

/**
 * The notice id of the `index`-th notice of the event at `seq`: derived, never drawn, so the same
 * event has the same id whoever computes it, and a receiver can drop a retry it has seen.
 */
export function noticeId(sessionId: string, seq: number, index: number): string {
  return `msg_${createHash('sha256')
    .update(JSON.stringify([sessionId, seq, index]))
    .digest('base64url')
    .slice(0, 32)}`;
}

/**
 * The notices an append of `events` (the first at seq `firstSeq`) carries: one per opened
 * interrupt, one per decision (`interrupt.expired` when it is an expiry's default action), one per
 * escalation and reminder, one per finished or failed run. Every other event carries none, so most appends write nothing more.
 */
export function notableEvents(sessionId: string, firstSeq: number, events: SessionEvent[]): NotableEvent[] {
  // A fork's copied history is not news: only the interrupts it opens afresh are (docs/time-travel.md).
  const forked = events.findIndex((event) => event.type === 'thread_forked');
  return events.flatMap((event, offset): NotableEvent[] => {
    const seq = firstSeq + offset;
    if (forked >= 0 && (offset <= forked || event.type !== 'interrupts_opened')) return [];
    const notice = (type: NoticeType, data: JsonObject, index = 0): NotableEvent => ({ id: noticeId(sessionId, seq, index), type, seq, data });
    switch (event.type) {
      case 'interrupts_opened':
        return event.interrupts.map((interrupt, index) => notice('interrupt.opened', { interrupt: json(interrupt) }, index));
      case 'interrupt_decided':
        return [notice(event.decision.expired ? 'interrupt.expired' : 'interrupt.decided', { interruptId: event.interruptId, decision: json(event.decision) })];
      // Those told next, and the reminder, are told what waits: the event carries the request as it stands.
      case 'interrupt_escalated':
        return event.interrupt ? [notice('interrupt.escalated', { interrupt: json(event.interrupt), level: event.level, to: event.to })] : [];
      case 'interrupt_reminded':
        return event.interrupt ? [notice('interrupt.reminder', { interrupt: json(event.interrupt) })] : [];
      case 'run_finished':
      case 'run_failed': {
        const { type, ...data } = event;
        return [notice(type === 'run_finished' ? 'run.finished' : 'run.failed', json(data))];
      }
      default:
        return [];
    }
  });
}

/** A record of the log as the JSON object it is stored as. */
function json(value: object): JsonObject {
  return value as unknown as JsonObject;
}
