// Runs once when a Next server starts: the checks that refuse an unsafe start, OpenTelemetry when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md; its SDK is not even loaded otherwise),
// then the background loops (recovery, timers, outbox, the attachment sweep), all in server/boot.
export async function register() {
  // NEXT_RUNTIME stays a literal read: Next replaces it when it bundles, for each runtime.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  await (await import('./server/boot')).startServerProcess();
}
