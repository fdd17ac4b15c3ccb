// The servers the integration global setup started for this worker, one per database kind
// (tests/integration/global-setup.ts): a file shares them only with the files of its own worker.
import { inject } from 'vitest';

export function backends() {
  const skipped = inject('postgresSkipped');
  if (skipped) console.warn(`!!! PostgreSQL integration tests skipped: ${skipped}`);
  const byWorker = inject('serversByWorker');
  // VITEST_POOL_ID is the worker's slot, 1 to maxWorkers (vitest.config.ts: 2).
  const slot = Math.min(Math.max(Number(process.env.VITEST_POOL_ID) || 1, 1), byWorker.length);
  return byWorker[slot - 1]!;
}
