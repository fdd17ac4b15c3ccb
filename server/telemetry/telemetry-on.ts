// Whether this server sends telemetry (docs/observability.md, "Turning it on"): only with a
// collector to send it to. What costs more than a no-op span — the AI SDK's lifecycle callbacks,
// the store's reads for the approval span and the pending count — is done only then.
import { setting } from '../config';

export function telemetryOn(): boolean {
  return setting('OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined;
}
