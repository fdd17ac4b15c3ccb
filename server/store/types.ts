// The event-log store: one interface, three backends — in memory (memory-store.ts), and SQLite and
// PostgreSQL behind Prisma (prisma-store.ts) — held to one conformance suite (store.conformance.ts).
// The store knows nothing of agents or HITL rules; it keeps sessions and their events and
// guarantees that two writers never interleave.
import type { InterruptRecord } from './pauses';
import type { SessionEvent, StoredEvent } from './events';
import type { ChatMessage } from './messages';
import type { ChannelName, DeliveryRecord, Notice } from './notices';

/**
 * What changed, as a watcher hears it: `'appended'` when it is known to be only an append to the
 * log (made by this process), `'any'` otherwise — a stop, a steer, a queue change, or another
 * process's write, whose kind a notification does not carry.
 */
export type SessionChange = 'appended' | 'any';

export type SessionStatus = 'idle' | 'running' | 'interrupted' | 'awaiting_tools' | 'error';

export interface SessionRecord {
  id: string;
  ownerId: string;
  agent: string;
  title: string | null;
  /** seq of the last event (0 for a new session). */
  headSeq: number;
  status: SessionStatus;
  /** While a run holds the session; a crashed process's lease runs out. */
  leaseUntil: Date | null;
  /** The session this one was forked from (docs/time-travel.md); null for an original. */
  parentId: string | null;
  /**
   * Bytes of its log (its events as stored JSON), kept by the append that writes them: what the
   * thread's size limit reads without reading the log (docs/security.md, "What a request may carry").
   */
  logBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The interrupt projection: kept in step with the log by append(), for listing across sessions. */
export interface PendingInterruptsOptions {
  limit?: number;
  /**
   * A key holder's list: also the browsers' sessions' interrupts kept for key holders (docs/security.md,
   * "Approvers"), and every interrupt kept for a list of approvers, whoever's session it waits in
   * — the runtime's mayDecide says which of those the caller may decide.
   */
  keyHolder?: boolean;
  /**
   * One part of the list (docs/hitl.md, "Paging the inbox"): `own`, the owner's sessions' only; `kept`, only
   * the others' a key holder's list adds (nothing without `keyHolder`). Both when unset.
   */
  part?: InterruptListPart;
  /** Keyset paging: only the rows after this one in the list's order (newest first, then by id). */
  after?: InterruptPosition;
  /** Which: the undecided ones (the default, the inbox), or the decided ones (the decision export, docs/replay.md). */
  status?: 'pending' | 'decided';
}

/** The parts of a key holder's interrupt list: the caller's own sessions', and the others' kept for key holders. */
export type InterruptListPart = 'own' | 'kept';

/** Where a listing of interrupts stopped: its last row's time and id, which order it. */
export interface InterruptPosition {
  createdAt: Date;
  id: string;
}

export interface InterruptRow {
  id: string;
  sessionId: string;
  ownerId: string;
  agent: string;
  status: 'pending' | 'decided';
  /** As opened, with its latest expiresAt (an escalation moves it: docs/approvals.md). */
  record: InterruptRecord;
  createdAt: Date;
  decidedAt: Date | null;
}

export interface AppendOptions {
  /** The session's status after these events (the reducer's verdict), kept as an index column. */
  status?: SessionStatus;
  /** Set or clear the run lease in the same transaction. */
  leaseUntil?: Date | null;
  title?: string;
  /**
   * A new session's owner and agent: the session is created in the append's own transaction
   * (expectedSeq 0), so a refused or failed first write leaves no empty session behind. If it
   * exists already the append is a ConcurrentAppendError, as any lost race.
   */
  create?: { ownerId: string; agent: string; parentId?: string };
  /**
   * Guidance a run has not read refuses the append: it writes only if the session holds no
   * steer of these runs (addSteer) but those in `seen`, checked in the same step as the claim,
   * and otherwise throws UnseenGuidanceError, having written nothing. How a run closes its turn
   * on the model's answer without reading its guidance first (docs/turn-control.md, "Steer").
   */
  unlessGuidance?: { runIds: string[]; seen: string[] };
}

/** Messages a session is to receive at a time (docs/turn-control.md, "Timers"). */
export interface TimerRecord {
  id: string;
  sessionId: string;
  /** Unique per session: scheduling the same key again keeps the first timer. */
  key: string;
  fireAt: Date;
  /** Their ids are the timer's (`<timer id>.<n>`), so appending them twice adds them once. */
  messages: ChatMessage[];
  firedAt: Date | null;
}

/** A message to queue, with the run it becomes when it goes out. */
export interface QueueEntry {
  message: ChatMessage;
  runId: string;
}

/** Guidance for a running run, kept beside the log until the run takes it in (docs/turn-control.md, "Steer"). */
export interface SteerRecord {
  id: string;
  sessionId: string;
  runId: string;
  message: ChatMessage;
  createdAt: Date;
}

/**
 * A user message waiting for the turn in progress, or the decision it waits on, to end
 * (docs/turn-control.md, "Queue"). Kept beside the log: a running run holds the head.
 */
export interface QueuedMessage {
  sessionId: string;
  /** A user message; its id is unique in the session's queue and becomes its id in the log. */
  message: ChatMessage;
  /** The run the message becomes when it goes out. */
  runId: string;
  /** The wire that queued it, the run's source when it goes out. */
  source: string;
  /** Ascending: the order the queue goes out in. */
  position: number;
  /** Sent now: it interrupts the running turn at its next step boundary. */
  sendNow: boolean;
  createdAt: Date;
}

/** A user's request to stop a run: kept beside the log, never in it (the head does not move). */
export interface StopRecord {
  sessionId: string;
  runId: string;
  /** The cursor of the last event the client had rendered when it asked, if it said. */
  frontier: string | null;
  /** Who asked: the wire or surface (`source`) and, when known, the owner it spoke for. */
  by: { source: string; ownerId?: string };
  requestedAt: Date;
}

/** Where a notice goes: one channel's target (docs/approvals.md, "Decision webhooks"). */
export interface DeliveryTarget {
  channel: ChannelName;
  target: string;
}

/** A notice and the targets it goes to (none: nobody takes it). */
export interface NoticeFanOut {
  noticeId: string;
  targets: DeliveryTarget[];
}

/** A delivery claimed for one attempt (its `attempts` counts it), with the notice it carries. */
export interface DeliveryClaim {
  delivery: DeliveryRecord;
  notice: Notice;
}

/** How an attempt ended: delivered, failed and due again at a time, or failed for the last time. */
export type DeliveryOutcome =
  { status: 'delivered'; at: Date } | { status: 'failing'; error: string; nextAttemptAt: Date } | { status: 'gave_up'; error: string };

/** Whose deliveries a listing shows: an owner's, and for a key holder the browsers' sessions' too (backend-rules.ts). */
export interface DeliveriesScope {
  ownerId: string;
  keyHolder?: boolean;
}

/** A signed-up user as the approval rules know them (docs/users-and-roles.md, "Links belong to people"). */
export interface Person {
  /** What their conversations are kept under, and the voter they are. */
  ownerId: string;
  email: string;
  roles: string[];
}

export interface EventStore {
  readonly kind: 'sqlite' | 'postgres' | 'memory';
  /** Creates the session, or returns the existing one with that id (whoever owns it). */
  ensureSession(input: { id: string; ownerId: string; agent: string }): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | null>;
  /** An owner's sessions, newest change first; `parentId`: only the forks of that session (docs/time-travel.md). */
  listSessions(ownerId: string, options?: { limit?: number; agent?: string; parentId?: string }): Promise<SessionRecord[]>;
  /** Events with seq > afterSeq, in order. */
  readEvents(sessionId: string, afterSeq?: number): Promise<StoredEvent[]>;
  /**
   * Appends events as seq expectedSeq+1, +2, … in one transaction. Throws
   * ConcurrentAppendError when the head is no longer expectedSeq (another writer won).
   */
  /** `at`: the time the events are stored under (each one's StoredEvent.at). */
  append(sessionId: string, expectedSeq: number, events: SessionEvent[], options?: AppendOptions): Promise<{ headSeq: number; at: string }>;
  /** One interrupt by id, whichever session raised it. */
  findInterrupt(id: string): Promise<InterruptRow | null>;
  /** Undecided interrupts of an owner across sessions (decided ones with `status: 'decided'`), newest first, then by id. */
  listPendingInterrupts(ownerId: string, options?: PendingInterruptsOptions): Promise<InterruptRow[]>;
  /** How many interrupts wait undecided now, whoever's, by tool name: the pending count the metrics report (docs/observability.md). */
  countPendingInterrupts(): Promise<Record<string, number>>;
  /**
   * Sessions with work the server must carry on by itself: a run whose lease ran out (its
   * server died), an undecided interrupt past its expiry or with a reminder due, or an idle
   * session with queued messages (its server died between a turn's end and the next message). Each session once;
   * of each kind at most `limit` (default 100), the longest waiting first (backend-rules.ts).
   */
  listRecoverable(now: Date, options?: { limit?: number }): Promise<string[]>;
  /** Extends the lease of a run that still holds the session at expectedSeq; false if it no longer does. */
  renewLease(sessionId: string, expectedSeq: number, until: Date): Promise<boolean>;
  /**
   * Records a stop for a run of a session. Idempotent: the first stop of a run wins; a repeat returns that
   * first record unchanged. Durable and seen by every process on the database, but not an
   * event: the session's head does not move. The session must exist.
   */
  requestStop(input: { sessionId: string; runId: string; frontier?: string | null; by: { source: string; ownerId?: string } }): Promise<StopRecord>;
  /** The stop recorded for a run of a session, or null. A run id is the client's: it names a run only within its session. */
  findStop(sessionId: string, runId: string): Promise<StopRecord | null>;
  /**
   * Schedules messages for a session (which must exist). Idempotent by (session, key): the
   * first timer of a key stands, and a repeat returns it with `created: false`. With `limit`, a
   * new timer is refused (LimitReachedError, nothing written) when the session has that many
   * waiting already — counted and written as one step, whoever schedules at the same moment.
   */
  scheduleTimer(input: {
    sessionId: string;
    key: string;
    fireAt: Date;
    messages: ChatMessage[];
    limit?: number;
  }): Promise<{ timer: TimerRecord; created: boolean }>;
  /**
   * Records guidance for a run (the session must exist) and wakes the session's watchers, in
   * this process and others. Idempotent by the message id within the run: a resend returns the first record.
   * With `limit`, new guidance is refused (LimitReachedError, nothing written) when the run has that
   * much already — counted and written as one step.
   */
  addSteer(input: { sessionId: string; runId: string; message: ChatMessage; limit?: number }): Promise<SteerRecord>;
  /** The guidance for a run of a session, oldest first. */
  listSteers(sessionId: string, runId: string): Promise<SteerRecord[]>;
  /**
   * Adds messages at the end of a session's queue, in order (the session must exist), and wakes its
   * watchers; answers their records in the same order. Idempotent by the message id: one queued
   * already is returned as it was. With `limit`, all or none: when the queue would hold more than
   * `limit`, nothing is queued (LimitReachedError) — counted and written as one step, so requests
   * at the same moment, in any process, cannot pass it together.
   */
  enqueue(input: { sessionId: string; entries: QueueEntry[]; source: string; limit?: number }): Promise<QueuedMessage[]>;
  /** A session's queue, in the order it goes out. */
  listQueue(sessionId: string): Promise<QueuedMessage[]>;
  /** Changes a queued message (its text, its place, send-now) and wakes the watchers; null if it is not queued (any more). */
  updateQueued(sessionId: string, messageId: string, change: { content?: string; position?: number; sendNow?: boolean }): Promise<QueuedMessage | null>;
  /** Takes a message out of the queue and wakes the watchers; false if it was not queued. */
  removeQueued(sessionId: string, messageId: string): Promise<boolean>;
  /** A session's timer by its key, or null. */
  findTimer(sessionId: string, key: string): Promise<TimerRecord | null>;
  /** How many of a session's timers have not fired yet. */
  countPendingTimers(sessionId: string): Promise<number>;
  /** Timers not fired yet whose time has come, oldest first. */
  dueTimers(now: Date, options?: { limit?: number }): Promise<TimerRecord[]>;
  /** Marks a timer fired; false if it already was (another process fired it). */
  markTimerFired(id: string, at: Date): Promise<boolean>;
  /**
   * The outbox (docs/approvals.md, "Decision webhooks"). append() writes a Notice for each notable
   * event (server/store/notices.ts notableEvents) in its own transaction. These are the dispatcher's:
   * notices whose deliveries do not exist yet, oldest first.
   */
  unfannedNotices(options?: { limit?: number }): Promise<Notice[]>;
  /**
   * Gives each notice a pending delivery per target, due at `now`, and marks them all fanned out
   * in one write (a notice with no targets: fanned out with none — most are, so a tick marks them
   * together rather than one statement each). Idempotent by (notice, channel, target): two
   * processes fanning one notice out make each delivery once. Returns how many deliveries it created.
   */
  fanOutNotices(fanOuts: NoticeFanOut[], now: Date): Promise<number>;
  /**
   * Claims up to `limit` due deliveries (pending or failing, nextAttemptAt ≤ now), oldest due first,
   * for one attempt each: the attempt is counted and the delivery is not due again until
   * `now + leaseMs`, so no other process sends the same attempt (a crashed sender's comes round again).
   */
  claimDueDeliveries(now: Date, options: { leaseMs: number; limit?: number }): Promise<DeliveryClaim[]>;
  /** Records how the claimed attempt `attempt` ended; false if the claim no longer holds (a later one took the delivery). */
  recordDeliveryAttempt(deliveryId: string, attempt: number, outcome: DeliveryOutcome): Promise<boolean>;
  /** The deliveries a scope sees, newest first. */
  listDeliveries(scope: DeliveriesScope, options?: { limit?: number }): Promise<DeliveryRecord[]>;
  /** Makes a failing or given-up delivery the scope sees due at `now` (one attempt more); null if there is no such delivery. */
  retryDelivery(deliveryId: string, scope: DeliveriesScope, now: Date): Promise<DeliveryRecord | null>;
  /** The signed-up user with this address (never a guest), as an approval link counts them; null for none. */
  personByAddress(address: string): Promise<Person | null>;
  /** The addresses of the signed-up users a list of approvers names by `role:<role>` or `members`, each once. */
  addressesOfApprovers(approvers: readonly string[]): Promise<string[]>;
  /**
   * Calls `listener` soon after the session may have changed — an append or a stop, made by
   * this process or by any other process on the same database. Returns the unsubscribe function.
   * A listener may be called spuriously; it re-reads what it needs. Watching `ANY_SESSION`
   * ('*', session-watch.ts) hears every session; the listener is told which one changed, and
   * whether it is known to be only an append ('appended') or may be anything ('any').
   */
  watch(sessionId: string, listener: (sessionId: string, change: SessionChange) => void): () => void;
  /** Closes the connections (the LISTEN one too); the store's watchers are called no more. */
  close(): Promise<void>;
}

const LIMIT_REACHED = Symbol.for('stackbone.LimitReachedError');

/**
 * A write past a limit its caller gave (a queue's, a run's guidance, a session's timers): nothing
 * was written. `held` is how many the session had when the write was counted.
 */
export class LimitReachedError extends Error {
  readonly [LIMIT_REACHED] = true;

  /** By brand, as ConcurrentAppendError: the error may come from another bundle's copy of this class. */
  static is(error: unknown): error is LimitReachedError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[LIMIT_REACHED] === true;
  }

  constructor(
    readonly limit: number,
    readonly held: number,
  ) {
    super(`At most ${limit} (${held} held already); nothing was written.`);
    this.name = 'LimitReachedError';
  }
}

const UNSEEN_GUIDANCE = Symbol.for('stackbone.UnseenGuidanceError');

/** An append with `unlessGuidance` found guidance its run has not read: nothing was written. */
export class UnseenGuidanceError extends Error {
  readonly [UNSEEN_GUIDANCE] = true;

  /** By brand, as ConcurrentAppendError: the error may come from another bundle's copy of this class. */
  static is(error: unknown): error is UnseenGuidanceError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[UNSEEN_GUIDANCE] === true;
  }

  constructor(readonly sessionId: string) {
    super(`Session ${sessionId} has guidance its run has not read; nothing was written.`);
    this.name = 'UnseenGuidanceError';
  }
}

const CONCURRENT_APPEND = Symbol.for('stackbone.ConcurrentAppendError');

/** Another writer appended first. The caller re-reads; it never retries blindly. */
export class ConcurrentAppendError extends Error {
  readonly code = 'session_busy';
  readonly [CONCURRENT_APPEND] = true;

  /**
   * Checks by brand, not by class: the store is one per process (cached on globalThis) while
   * Next bundles each route separately, so its errors may come from another copy of this class.
   */
  static is(error: unknown): error is ConcurrentAppendError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[CONCURRENT_APPEND] === true;
  }

  constructor(
    readonly sessionId: string,
    readonly expectedSeq: number,
  ) {
    super(`Session ${sessionId} was written by someone else (expected head ${expectedSeq}).`);
    this.name = 'ConcurrentAppendError';
  }
}
