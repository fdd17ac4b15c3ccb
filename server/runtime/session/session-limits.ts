// How much one session may hold — its log, and beside it — and how long a queued request waits
// (docs/security.md, "What a request may carry"). Each is work a client can ask for cheaply and
// the server pays for later — a model turn per queued message, a model step per steer, a run
// per timer, a read of the whole log for every view of a thread — so one request, or one client,
// cannot pile up hundreds. A refusal writes nothing and says which limit (with a code: docs/errors.md).
import { Refusal } from '../errors';
import { envNumber } from '../common';

/** Messages waiting in a session's queue at once (each becomes a model turn): STACKBONE_MAX_QUEUED_MESSAGES, default 32. */
export function maxQueuedMessages(): number {
  return envCount('STACKBONE_MAX_QUEUED_MESSAGES') ?? 32;
}

/** Guidance one run may take (each may cost a model step): STACKBONE_MAX_STEERS_PER_RUN, default 32. */
export function maxSteersPerRun(): number {
  return envCount('STACKBONE_MAX_STEERS_PER_RUN') ?? 32;
}

/** Timers a session may have waiting to fire (each fires a run): STACKBONE_MAX_TIMERS_PER_SESSION, default 100. */
export function maxPendingTimers(): number {
  return envCount('STACKBONE_MAX_TIMERS_PER_SESSION') ?? 100;
}

/**
 * How long the response of a message queued behind a running turn waits for the message to go
 * out before it ends, saying the message is queued (STACKBONE_QUEUE_WAIT_MS, default 60 s): a
 * turn may run for minutes, and a request must not hang that long.
 */
export function queuedWaitMs(): number {
  return envCount('STACKBONE_QUEUE_WAIT_MS') ?? 60_000;
}

/** A message's text, in characters (a user's, a tool result a client sends, a queued one, guidance): STACKBONE_MAX_MESSAGE_CHARS, default 100,000. */
export function maxMessageChars(): number {
  return envCount('STACKBONE_MAX_MESSAGE_CHARS') ?? 100_000;
}

/**
 * A thread's log, in bytes of its events' JSON, past which it takes no new message:
 * STACKBONE_MAX_THREAD_BYTES, default 8 MB — some hundreds of long turns; every view of the thread
 * (a hydration, a session stream from its start, a cold cache) reads and folds all of it. At most
 * 2 GB, what the session's size column counts to.
 */
export function maxThreadBytes(): number {
  return Math.min(envCount('STACKBONE_MAX_THREAD_BYTES') ?? 8_000_000, 2_000_000_000);
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

/** A whole number from the environment (a limit, milliseconds), or undefined for the default. */
function envCount(name: string): number | undefined {
  const value = envNumber(name);
  return value !== undefined && Number.isFinite(value) ? Math.floor(value) : undefined;
}
