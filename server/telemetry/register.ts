// Registers the OpenTelemetry SDK (docs/observability.md, "Turning it on"): @vercel/otel for the
// traces — Next's own request spans and ours, sent over OTLP/HTTP as its OTEL_EXPORTER_OTLP_*
// variables say — and an OTLP metric exporter for the approval metrics. Imported only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (server/boot): without it, no module of the SDK is loaded.
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { registerOTel } from '@vercel/otel';
import { setting } from '../config';

export function registerTelemetry(): void {
  const intervalMs = setting('OTEL_METRIC_EXPORT_INTERVAL');
  registerOTel({
    // OTEL_SERVICE_NAME, when set, wins over this.
    serviceName: 'stackbone',
    metricReaders: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: intervalMs,
        exportTimeoutMillis: Math.min(intervalMs, 30_000),
      }),
    ],
  });
}
