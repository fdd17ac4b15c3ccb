// Holding the session while a run runs: the lease is renewed on a heartbeat (a crashed
// server's run expires after leaseMs and recovery takes it over), and the run's persisted Stop
// is noticed — through the store's watch at once, and on the heartbeat as a safety net
// (docs/internals/architecture.md, "Two writers never interleave"; docs/hitl.md, "Stopping a run"). A
// renewal the store refuses means another run took the session over (this process stalled past
// its lease): the run is told at once, and stops.
import type { EventStore, SessionChange, SessionRecord } from '../../store/types';
import type { SessionView } from './reduce';
import { setting } from '../../config';

/** How long a run holds its session without renewing; a crashed server's run expires after it. */
export function leaseMs(): number {
  return setting('STACKBONE_LEASE_MS');
}

/**
 * Does a live run hold the session now? A running session whose lease ran out is abandoned
 * (its server died): recovery, or the next request, takes it over.
 */
export function runHoldsSession(view: SessionView, session: SessionRecord | null): boolean {
  return view.status === 'running' && Boolean(session?.leaseUntil) && session!.leaseUntil!.getTime() > Date.now();
}

/** Why a run's signal aborted. */
export interface StopReason {
  code: 'stopped';
  frontier: string | null;
  by: { source: string; ownerId?: string };
}

export interface SessionHold {
  /** Looks for a stop on record now. */
  checkStop: () => Promise<void>;
  /** Stops renewing and watching (the run ended). */
  release: () => void;
}

export function holdSession(options: {
  store: EventStore;
  sessionId: string;
  runId: string;
  /** A stateless turn has no one to stop it but its request. */
  durable: boolean;
  /**
   * Extends the lease at the head the run last wrote; false when the store refuses (another
   * writer moved the head). The run makes it go through its own write queue, so a renewal never
   * names a head its own append is about to move.
   */
  renew: () => Promise<boolean>;
  onStop: (reason: StopReason) => void;
  /** Another run holds the session now: this one must stop at once and write nothing more. */
  onLost: () => void;
}): SessionHold {
  const { store, sessionId, runId } = options;
  let stopped = false;
  let lost = false;
  const checkStop = async () => {
    if (stopped) return;
    const stop = await store.findStop(sessionId, runId).catch(() => null);
    if (stop && !stopped) {
      stopped = true;
      options.onStop({ code: 'stopped', frontier: stop.frontier, by: stop.by });
    }
  };
  const checkLease = async () => {
    if (lost || !options.durable) return;
    // A failed renewal (the database is unreachable) is not a takeover: nobody else can write either.
    const held = await options.renew().catch(() => true);
    if (!held && !lost) {
      lost = true;
      options.onLost();
    }
  };
  const heartbeat = setInterval(
    () => {
      void checkLease();
      void checkStop();
    },
    Math.max(1000, leaseMs() / 3),
  );
  heartbeat.unref?.();
  // An append made in this process is not a stop (a stop is written beside the log and wakes its
  // watchers itself): the run's own appends, a turn's most frequent wake-up, look up nothing.
  // Anything else may be another process taking the session over: the lease is checked too.
  const onChange = (_: string, change: SessionChange) => {
    if (change === 'appended') return;
    void checkStop();
    void checkLease();
  };
  const unwatch = options.durable ? store.watch(sessionId, onChange) : () => undefined;
  return {
    checkStop,
    release: () => {
      clearInterval(heartbeat);
      unwatch();
    },
  };
}
