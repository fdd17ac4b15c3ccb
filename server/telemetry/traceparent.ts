// A span's context as the log keeps it (docs/observability.md, "Across a pause and a restart"): a
// W3C traceparent, the one text form every tracer reads. Written by hand rather than through the
// configured propagator: what is stored must read back the same whatever OTEL_PROPAGATORS a later
// server runs with, and the format is one line of the W3C Trace Context spec.
import { isSpanContextValid, type SpanContext } from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `00-<trace id>-<span id>-<flags>`; undefined for the invalid context of a span nobody records (telemetry off). */
export function formatTraceparent(context: SpanContext): string | undefined {
  if (!isSpanContextValid(context)) return undefined;
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The span context a traceparent names, marked remote (it was recorded elsewhere, maybe by another process); undefined if it names none. */
export function parseTraceparent(traceparent: string | undefined): SpanContext | undefined {
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!match) return undefined;
  const context: SpanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true };
  return isSpanContextValid(context) ? context : undefined;
}
