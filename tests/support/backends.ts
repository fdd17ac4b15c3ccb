// The servers the integration global setup started, one per database kind.
import { inject } from 'vitest';

export function backends() {
  const skipped = inject('postgresSkipped');
  if (skipped) console.warn(`!!! PostgreSQL integration tests skipped: ${skipped}`);
  return inject('servers');
}
