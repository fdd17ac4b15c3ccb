// How much one session may hold — its log, and beside it — and how long a queued request waits
// (docs/security.md, "What a request may carry"). Each is work a client can ask for cheaply and
// the server pays for later — a model turn per queued message, a model step per steer, a run
// per timer, a read of the whole log for every view of a thread — so one request, or one client,
// cannot pile up hundreds. A refusal writes nothing and says which limit (with a code: docs/errors.md).
import { Refusal } from '../errors';
import { setting } from '../../config';

/** Messages waiting in a session's queue at once (each becomes a model turn): STACKBONE_MAX_QUEUED_MESSAGES, default 32. */
export function maxQueuedMessages(): number {
  return setting('STACKBONE_MAX_QUEUED_MESSAGES');
}

/** Guidance one run may take (each may cost a model step): STACKBONE_MAX_STEERS_PER_RUN, default 32. */
export function maxSteersPerRun(): number {
  return setting('STACKBONE_MAX_STEERS_PER_RUN');
}

/** Timers a session may have waiting to fire (each fires a run): STACKBONE_MAX_TIMERS_PER_SESSION, default 100. */
export function maxPendingTimers(): number {
  return setting('STACKBONE_MAX_TIMERS_PER_SESSION');
}

/**
 * How long the response of a message queued behind a running turn waits for the message to go
 * out before it ends, saying the message is queued (STACKBONE_QUEUE_WAIT_MS, default 60 s): a
 * turn may run for minutes, and a request must not hang that long.
 */
export function queuedWaitMs(): number {
  return setting('STACKBONE_QUEUE_WAIT_MS');
}

/** A message's text, in characters (a user's, a tool result a client sends, a queued one, guidance): STACKBONE_MAX_MESSAGE_CHARS, default 100,000. */
export function maxMessageChars(): number {
  return setting('STACKBONE_MAX_MESSAGE_CHARS');
}

/**
 * A thread's log, in bytes of its events' JSON, past which it takes no new message:
 * STACKBONE_MAX_THREAD_BYTES, default 8 MB — some hundreds of long turns; every view of the thread
 * (a hydration, a session stream from its start, a cold cache) reads and folds all of it. At most
 * 2 GB, what the session's size column counts to.
 */
export function maxThreadBytes(): number {
  return Math.min(setting('STACKBONE_MAX_THREAD_BYTES'), 2_000_000_000);
}

/** The refusal of a write past a limit (the store counted `held` and wrote nothing). */
export function limitRefusal(what: {
  code: 'queue_full' | 'too_many_steers';
  noun: string;
  limit: number;
  held: number;
  adding: number;
  advice: string;
}): Refusal {
  return new Refusal(what.code, `${what.noun}: at most ${what.limit} (${what.held} already, ${what.adding} more asked). ${what.advice}`, {
    limit: what.limit,
  });
}
