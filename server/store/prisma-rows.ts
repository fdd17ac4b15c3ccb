// The store's rows turned into its records: one decoder per table, for what a raw query returns
// (hot-path-sql.ts) and what a model query returns alike, so that a record reads the same
// whichever way its row was fetched.
import type { InterruptRecord } from './pauses';
import type { SessionEvent, StoredEvent } from './events';
import type { ChatMessage, JsonObject } from './messages';
import type { ChannelName, DeliveryRecord, DeliveryStatus, Notice, NoticeType } from './notices';
import type { InterruptRow, QueuedMessage, SessionRecord, SessionStatus, SteerRecord, StopRecord, TimerRecord } from './types';

/**
 * A row as a query returns it: DateTime columns arrive as Dates on both databases, a SQLite
 * boolean may arrive as 0/1. The decoders below turn it into the store's records.
 */
export type Row = Record<string, unknown>;

const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));
const text = (value: unknown): string => String(value);
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function sessionFromRow(row: Row): SessionRecord {
  return {
    id: text(row.id),
    ownerId: text(row.ownerId),
    agent: text(row.agent),
    title: textOrNull(row.title),
    headSeq: Number(row.headSeq),
    status: text(row.status) as SessionStatus,
    leaseUntil: dateOrNull(row.leaseUntil),
    parentId: textOrNull(row.parentId),
    logBytes: Number(row.logBytes ?? 0),
    createdAt: date(row.createdAt),
    updatedAt: date(row.updatedAt),
  };
}

export function eventFromRow(row: Row): StoredEvent {
  return { seq: Number(row.seq), at: date(row.createdAt).toISOString(), event: JSON.parse(text(row.data)) as SessionEvent };
}

export function stopFromRow(row: Row): StopRecord {
  return {
    sessionId: text(row.sessionId),
    runId: text(row.runId),
    frontier: textOrNull(row.frontier),
    by: JSON.parse(text(row.by)) as StopRecord['by'],
    requestedAt: date(row.createdAt),
  };
}

export function steerFromRow(row: Row): SteerRecord {
  return {
    id: text(row.id),
    sessionId: text(row.sessionId),
    runId: text(row.runId),
    message: JSON.parse(text(row.message)) as ChatMessage,
    createdAt: date(row.createdAt),
  };
}

export function queuedFromRow(row: Row): QueuedMessage {
  return {
    sessionId: text(row.sessionId),
    message: JSON.parse(text(row.message)) as ChatMessage,
    runId: text(row.runId),
    source: text(row.source),
    position: Number(row.position),
    sendNow: Boolean(row.sendNow),
    createdAt: date(row.createdAt),
  };
}

export function interruptFromRow(row: Row): InterruptRow {
  return {
    id: text(row.id),
    sessionId: text(row.sessionId),
    ownerId: text(row.ownerId),
    agent: text(row.agent),
    status: text(row.status) as InterruptRow['status'],
    record: withExpiry(JSON.parse(text(row.data)) as InterruptRecord, dateOrNull(row.expiresAt)),
    createdAt: date(row.createdAt),
    decidedAt: dateOrNull(row.decidedAt),
  };
}

/** The record as opened, with the expiry the projection keeps (an escalation moves it: docs/approvals.md). */
function withExpiry(record: InterruptRecord, expiresAt: Date | null): InterruptRecord {
  return expiresAt ? { ...record, expiresAt: expiresAt.toISOString() } : record;
}

export function timerFromRow(row: Row): TimerRecord {
  return {
    id: text(row.id),
    sessionId: text(row.sessionId),
    key: text(row.key),
    fireAt: date(row.fireAt),
    messages: JSON.parse(text(row.messages)) as ChatMessage[],
    firedAt: dateOrNull(row.firedAt),
  };
}

export function noticeFromRow(row: Row): Notice {
  return {
    id: text(row.id),
    type: text(row.type) as NoticeType,
    sessionId: text(row.sessionId),
    agent: text(row.agent),
    ownerId: text(row.ownerId),
    at: date(row.createdAt).toISOString(),
    data: JSON.parse(text(row.data)) as JsonObject,
  };
}

/** A Delivery row with the columns of its notice it shows (`notice`: type, sessionId, ownerId). */
export function deliveryFromRow(row: Row & { notice: Row }): DeliveryRecord {
  return {
    id: text(row.id),
    noticeId: text(row.noticeId),
    noticeType: text(row.notice.type) as NoticeType,
    sessionId: text(row.notice.sessionId),
    ownerId: text(row.notice.ownerId),
    channel: text(row.channel) as ChannelName,
    target: text(row.target),
    status: text(row.status) as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: date(row.nextAttemptAt),
    lastError: textOrNull(row.lastError),
    deliveredAt: dateOrNull(row.deliveredAt),
    createdAt: date(row.createdAt),
  };
}
