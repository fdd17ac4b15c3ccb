// Holding the session while a run runs: the lease is renewed on a heartbeat (a crashed
// server's run expires after leaseMs and recovery takes it over), and the run's persisted Stop
// is noticed — through the store's watch at once, and on the heartbeat as a safety net
// (docs/architecture.md, "Two writers never interleave"; docs/hitl.md, "Stopping a run").
import type { EventStore, SessionChange, SessionRecord } from '../store/types';
import type { SessionView } from './reduce';

/** How long a run holds its session without renewing; a crashed server's run expires after it. */
export function leaseMs(): number {
  return Number(process.env.STACKBONE_LEASE_MS) || 30_000;
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
  /** The log head the run last wrote: a renewal is refused once another writer moved it. */
  head: () => number;
  onStop: (reason: StopReason) => void;
}): SessionHold {
  const { store, sessionId, runId } = options;
  let stopped = false;
  const checkStop = async () => {
    if (stopped) return;
    const stop = await store.findStop(runId).catch(() => null);
    if (stop && !stopped) {
      stopped = true;
      options.onStop({ code: 'stopped', frontier: stop.frontier, by: stop.by });
    }
  };
  const heartbeat = setInterval(() => {
    void store.renewLease(sessionId, options.head(), new Date(Date.now() + leaseMs())).catch(() => undefined);
    void checkStop();
  }, Math.max(1000, leaseMs() / 3));
  heartbeat.unref?.();
  // An append made in this process is not a stop (a stop is written beside the log and wakes its
  // watchers itself): the run's own appends, a turn's most frequent wake-up, look up nothing.
  const onChange = (_: string, change: SessionChange) => {
    if (change !== 'appended') void checkStop();
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
