// The servers the integration global setup started for this worker, one per database kind
// (tests/integration/global-setup.ts): a file shares them only with the files of its own worker.
import { inject } from 'vitest';
import { workerSlot } from './server';

export function backends() {
  const skipped = inject('postgresSkipped');
  if (skipped) console.warn(`!!! PostgreSQL integration tests skipped: ${skipped}`);
  const byWorker = inject('serversByWorker');
  return byWorker[Math.min(workerSlot(), byWorker.length) - 1]!;
}
