import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFailure, backoffSettings, waitAfter } from './delivery-backoff';

describe('delivery backoff (docs/approvals.md, "Decision webhooks")', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('waits 2 s, 10 s, 1 min, 5 min, 30 min, then 2 h between attempts, and gives up after 8 by default', () => {
    vi.stubEnv('STACKBONE_DELIVERY_BACKOFF_MS', '');
    vi.stubEnv('STACKBONE_DELIVERY_ATTEMPTS', '');
    const settings = backoffSettings();
    expect(settings).toEqual({ firstWaitMs: 2_000, attempts: 8 });
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => waitAfter(attempt, settings))).toEqual([
      2_000, 10_000, 60_000, 300_000, 1_800_000, 7_200_000, 7_200_000, 7_200_000,
    ]);
    const now = new Date('2026-12-09T10:00:00Z');
    expect(afterFailure(1, 'HTTP 503', now, settings)).toEqual({ status: 'failing', error: 'HTTP 503', nextAttemptAt: new Date('2026-12-09T10:00:02Z') });
    expect(afterFailure(7, 'HTTP 503', now, settings)).toEqual({ status: 'failing', error: 'HTTP 503', nextAttemptAt: new Date('2026-12-09T12:00:00Z') });
    expect(afterFailure(8, 'HTTP 503', now, settings)).toEqual({ status: 'gave_up', error: 'HTTP 503' });
  });

  it('takes the first wait and the number of attempts from the environment, the ladder keeping its ratios', () => {
    vi.stubEnv('STACKBONE_DELIVERY_BACKOFF_MS', '50');
    vi.stubEnv('STACKBONE_DELIVERY_ATTEMPTS', '3');
    const settings = backoffSettings();
    expect(settings).toEqual({ firstWaitMs: 50, attempts: 3 });
    expect([1, 2].map((attempt) => waitAfter(attempt, settings))).toEqual([50, 250]);
    expect(afterFailure(2, 'x', new Date(0), settings)).toMatchObject({ status: 'failing' });
    expect(afterFailure(3, 'x', new Date(0), settings)).toEqual({ status: 'gave_up', error: 'x' });
    // Nonsense is no setting: the defaults stand, and at least one attempt is made.
    vi.stubEnv('STACKBONE_DELIVERY_BACKOFF_MS', 'soon');
    vi.stubEnv('STACKBONE_DELIVERY_ATTEMPTS', '0');
    expect(backoffSettings()).toEqual({ firstWaitMs: 2_000, attempts: 1 });
  });
});
