// The tracer every span of the server's own is made with (docs/observability.md). Without an SDK
// registered it is the API's no-op: a span costs an object and records nothing. Taken once, at
// load: the API hands out a proxy that starts recording once the SDK registers (register.ts).
import { context, trace, type Span } from '@opentelemetry/api';

/** The instrumentation scope of the runtime's spans: run, model call, tool call and approval. */
export const tracer = trace.getTracer('stackbone');

/** Runs `work` with `span` as the active span: what starts inside (a model call, a tool call) is its child. */
export function inSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}
