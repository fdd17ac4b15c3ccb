// When a failed delivery is tried again, and when it is given up (docs/approvals.md, "Decision
// webhooks"): 2 s, 10 s, 1 min, 5 min, 30 min, then every 2 h, until STACKBONE_DELIVERY_ATTEMPTS
// attempts (8 by default, about 5 h in all) have failed. STACKBONE_DELIVERY_BACKOFF_MS sets the
// first wait (2000); the others keep their ratio to it, so a test can make the whole ladder short.
import { setting } from '../../config';
import type { DeliveryOutcome } from '../../store/types';

/** The waits after the 1st, 2nd, … failed attempt, in multiples of the first; the last repeats. */
const LADDER = [1, 5, 30, 150, 900, 3600];

export interface BackoffSettings {
  /** The wait after the first failed attempt. */
  firstWaitMs: number;
  /** Attempts in all, the first one included. */
  attempts: number;
}

export function backoffSettings(): BackoffSettings {
  return {
    firstWaitMs: setting('STACKBONE_DELIVERY_BACKOFF_MS'),
    attempts: Math.max(1, setting('STACKBONE_DELIVERY_ATTEMPTS')),
  };
}

/** How long to wait after attempt `attempt` (1-based) failed. */
export function waitAfter(attempt: number, settings: BackoffSettings): number {
  return settings.firstWaitMs * LADDER[Math.min(Math.max(attempt, 1), LADDER.length) - 1]!;
}

/** What a failed attempt makes of its delivery: due again after its wait, or given up after the last attempt. */
export function afterFailure(attempt: number, error: string, now: Date, settings: BackoffSettings = backoffSettings()): DeliveryOutcome {
  if (attempt >= settings.attempts) return { status: 'gave_up', error };
  return { status: 'failing', error, nextAttemptAt: new Date(now.getTime() + waitAfter(attempt, settings)) };
}
