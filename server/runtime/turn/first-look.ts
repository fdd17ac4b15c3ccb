// A run's first look beside the log — for a stop, a queued message sent now, guidance — before
// its first model call (turn-runner.ts). A run whose own first append created its session may
// go without it: nothing of the session predates that append, and the session is watched from
// before it, so anything written beside the log since is heard (a stop, a steer and a queued
// message each wake the session's watchers). The look is still made when something was heard,
// and when other runs of this process were starting at the same time: then its wait lets their
// first appends go out ahead of this run's model call, so that a burst of runs is acknowledged
// before any of them streams (docs/internals/benchmarks.md, "Where a short turn's time goes on PostgreSQL").
import type { EventStore } from '../../store/types';

/** Runs of this process between their request and their first append's answer. */
let starting = 0;

export interface FirstLook {
  /** The creating append took: from here the run is no longer starting. */
  created(): void;
  /** Whether the run must look beside the log before its first model call. */
  needed(): boolean;
  /** Whether no other run of this process is starting now: then the run may be prepared while its creating append commits (start-run.ts). */
  alone(): boolean;
  /** Stops watching: the run's own watch has begun. */
  release(): void;
  /** The run did not start: no longer starting, no longer watching. */
  abandon(): void;
}

/** Watches a session a run is about to create, from before its creating append. */
export function watchFromCreation(store: EventStore, sessionId: string): FirstLook {
  starting++;
  let heard = false;
  let counted = true;
  let alone = false;
  const uncount = () => {
    if (counted) starting--;
    counted = false;
  };
  // The run's own appends say 'appended'; anything else is someone else's write.
  const unwatch = store.watch(sessionId, (_, change) => {
    if (change !== 'appended') heard = true;
  });
  return {
    created() {
      alone = starting === 1;
      uncount();
    },
    needed: () => heard || !alone,
    alone: () => counted && starting === 1,
    release: unwatch,
    abandon() {
      uncount();
      unwatch();
    },
  };
}
