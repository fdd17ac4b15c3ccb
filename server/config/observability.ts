// OpenTelemetry (docs/observability.md): set the collector's address and the server sends its
// traces and approval metrics there; unset, nothing of the SDK is loaded. The SDK reads the
// OTEL_* variables itself too (the protocol, headers, service name below, and any other of the
// standard ones); the server reads only the endpoint, to decide, and the metric interval.
import { group } from './group';
import { choice, text, whole } from './variable';

export const observability = group('OpenTelemetry (docs/observability.md). Unset: no telemetry, and nothing of it is loaded.', {
  OTEL_EXPORTER_OTLP_ENDPOINT: text({
    description:
      "Turns OpenTelemetry on: the OTLP/HTTP collector's base URL (http://localhost:4318); traces go to /v1/traces, metrics to /v1/metrics. Each run, model call, tool call and approval is a span; approvals are counted.",
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: choice(
    { description: 'How traces are encoded: http/protobuf, or http/json (metrics are sent as JSON either way).', example: '' },
    ['http/protobuf', 'http/json'],
    undefined,
  ),
  OTEL_EXPORTER_OTLP_HEADERS: text({ description: "Headers the exporters send, as key=value pairs separated by commas (a vendor's API key)." }),
  OTEL_SERVICE_NAME: text({ description: 'The service.name the telemetry carries. Default: stackbone.' }),
  OTEL_METRIC_EXPORT_INTERVAL: whole({ description: 'How often (ms) the approval metrics are sent.' }, 'milliseconds', 60_000, 1),
});
