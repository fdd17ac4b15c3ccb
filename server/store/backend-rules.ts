// The rules every EventStore backend keeps alike — the in-memory store (memory-store.ts) and the
// Prisma one over SQLite and PostgreSQL (prisma-store.ts) — written once here so that they cannot
// drift apart. the store's conformance suite (store.conformance.ts) holds each backend to them.
import { createHash } from 'node:crypto';
import type { InterruptRecord } from './pauses';
import type { SessionEvent } from './events';
import type { ChatMessage } from './messages';
import type { DeliveryRecord, DeliveryStatus } from './notices';
import type { DeliveriesScope, DeliveryOutcome, InterruptPosition, InterruptRow, PendingInterruptsOptions, StopRecord } from './types';

/** How many rows a listing returns when its caller names no limit. */
export const DEFAULT_LIST_LIMIT = 100;

/**
 * The owners of guests' sessions (`browser:<uuid>`, server/auth/guest-account.ts): their interrupts
 * for key holders are listed to key holders too (docs/security.md, "Approvers").
 */
export const BROWSER_OWNER_PREFIX = 'browser:';

/**
 * The Interrupt projection's `approvers` column: `key-holders`, `named` for a list of approvers
 * (`['key:finance']`, whoever's session it waits in), or null for the session's owner. A key
 * holder's listing has both kinds; which of them they may decide, the runtime says
 * (docs/approvals.md, "Quorum and separation of duties").
 */
export function approversColumn(record: Pick<InterruptRecord, 'approvers'>): 'key-holders' | 'named' | null {
  if (Array.isArray(record.approvers)) return 'named';
  return record.approvers === 'key-holders' ? 'key-holders' : null;
}

/**
 * Whether an interrupt belongs to a listing (PendingInterruptsOptions): the owner's own, and for a
 * key holder the others' it may be asked to decide — a browser's kept for key holders, or one kept
 * for a list of approvers. `part` picks one of the two.
 */
export function listsInterrupt(
  row: Pick<InterruptRow, 'ownerId' | 'record'>,
  ownerId: string,
  options: Pick<PendingInterruptsOptions, 'keyHolder' | 'part'>,
): boolean {
  const own = row.ownerId === ownerId;
  const approvers = approversColumn(row.record);
  const kept = options.keyHolder === true && !own && (approvers === 'named' || (approvers === 'key-holders' && row.ownerId.startsWith(BROWSER_OWNER_PREFIX)));
  return options.part === 'own' ? own : options.part === 'kept' ? kept : own || kept;
}

/** Whether a row comes after a position in an interrupt listing's order: newest first, then by id. */
export function afterPosition(row: InterruptPosition, position: InterruptPosition | undefined): boolean {
  if (!position) return true;
  const at = row.createdAt.getTime() - position.createdAt.getTime();
  return at < 0 || (at === 0 && row.id > position.id);
}

/** A write that needs its session, on one that does not exist: a caller's bug, never a lost race. */
export function noSuchSession(sessionId: string, cause?: unknown): Error {
  return new Error(`Session ${sessionId} does not exist (ensureSession first).`, cause === undefined ? undefined : { cause });
}

/** The head an append expects: a whole number, and 0 for the append that creates its session. */
export function checkExpectedSeq(expectedSeq: number, creating: boolean): void {
  if (!Number.isSafeInteger(expectedSeq) || expectedSeq < 0) throw new RangeError(`expectedSeq must be a non-negative integer, got ${expectedSeq}`);
  if (creating && expectedSeq !== 0) throw new Error(`A new session starts at seq 0 (got ${expectedSeq}).`);
}

/** Only the documented keys of a stop's `by`, so what is stored is what the type promises. */
export function stopBy(by: StopRecord['by']): StopRecord['by'] {
  return { source: by.source, ...(by.ownerId !== undefined ? { ownerId: by.ownerId } : {}) };
}

/** An event as the log stores it: its type, and its JSON (encoded once: the append also counts its bytes). */
export interface EncodedEvent {
  type: SessionEvent['type'];
  data: string;
}

/**
 * Events encoded for an append, with the bytes they add to their session's log (SessionRecord.logBytes,
 * what the thread's size limit reads: docs/security.md, "What a request may carry").
 */
export function encodeEvents(events: SessionEvent[]): { encoded: EncodedEvent[]; bytes: number } {
  let bytes = 0;
  const encoded = events.map((event) => {
    const data = JSON.stringify(event);
    bytes += Buffer.byteLength(data, 'utf8');
    return { type: event.type, data };
  });
  return { encoded, bytes };
}

/** A message added to a queue goes after its last one (whose place may have been moved below 1). */
export function nextQueuePosition(lastPosition: number | null | undefined): number {
  return Math.max(0, lastPosition ?? 0) + 1;
}

/** A queued message whose text was edited: the same message, id and role kept. */
export function withContent(message: ChatMessage, content: string): ChatMessage {
  return { ...message, content } as ChatMessage;
}

/** What an append changes in the interrupt projection: the interrupts it opens and the ids it decides. */
export function interruptChanges(events: SessionEvent[]): {
  opened: InterruptRecord[];
  decided: string[];
  /** Escalations move an interrupt's expiry (docs/approvals.md). */
  escalated: { id: string; expiresAt: string }[];
  /** Interrupts whose reminder was recorded: none is due any more. */
  reminded: string[];
} {
  return {
    opened: events.flatMap((event) => (event.type === 'interrupts_opened' ? event.interrupts : [])),
    decided: events.flatMap((event) => (event.type === 'interrupt_decided' ? [event.interruptId] : [])),
    escalated: events.flatMap((event) => (event.type === 'interrupt_escalated' ? [{ id: event.interruptId, expiresAt: event.expiresAt }] : [])),
    reminded: events.flatMap((event) => (event.type === 'interrupt_reminded' ? [event.interruptId] : [])),
  };
}

/**
 * The sessions a recovery sweep takes on, each once: runs whose lease ran out, then interrupts past
 * their expiry, then idle sessions with queued messages — each kind longest waiting first, so that
 * no session starves behind others.
 */
export function recoverableSessionIds(kinds: { stale: string[]; expired: string[]; queued: string[]; reminders?: string[] }): string[] {
  return [...new Set([...kinds.stale, ...kinds.expired, ...(kinds.reminders ?? []), ...kinds.queued])];
}

/** A delivery's notice is the scope's: its owner's, or for a key holder a browser's session's too (docs/security.md, "Approvers"). */
export function deliveryVisible(ownerId: string, scope: DeliveriesScope): boolean {
  return ownerId === scope.ownerId || (scope.keyHolder === true && ownerId.startsWith(BROWSER_OWNER_PREFIX));
}

/** The statuses a claim takes a due delivery from: not delivered, not given up. */
export const OPEN_DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'failing'];

/** Retry now takes a delivery that failed, given up or not, back to due (docs/approvals.md, "Decision webhooks"). */
export function retryable(delivery: Pick<DeliveryRecord, 'status'>): boolean {
  return delivery.status === 'failing' || delivery.status === 'gave_up';
}

/** What a recorded attempt changes in its delivery. */
export function deliveryChange(
  outcome: DeliveryOutcome,
): Pick<DeliveryRecord, 'status' | 'lastError'> & Partial<Pick<DeliveryRecord, 'deliveredAt' | 'nextAttemptAt'>> {
  switch (outcome.status) {
    case 'delivered':
      return { status: 'delivered', deliveredAt: outcome.at, lastError: null };
    case 'failing':
      return { status: 'failing', lastError: outcome.error, nextAttemptAt: outcome.nextAttemptAt };
    case 'gave_up':
      return { status: 'gave_up', lastError: outcome.error };
  }
}

/** The id of the delivery of a notice to a target: derived, so fanning out twice makes it once. */
export function deliveryId(noticeId: string, channel: string, target: string): string {
  return `dlv_${createHash('sha256')
    .update(JSON.stringify([noticeId, channel, target]))
    .digest('base64url')
    .slice(0, 32)}`;
}
