// A span's context survives the log as a W3C traceparent (docs/observability.md, "Across a pause and a restart").
import { INVALID_SPAN_CONTEXT, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from './traceparent';

const sampled = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

describe('a traceparent kept with an interrupt', () => {
  it('writes a span context as the W3C header does, and reads it back as a remote one', () => {
    const traceparent = formatTraceparent(sampled);
    expect(traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent(traceparent)).toEqual({ ...sampled, isRemote: true });
    expect(formatTraceparent({ ...sampled, traceFlags: TraceFlags.NONE })).toMatch(/-00$/);
  });

  it('is not written for the span of a server without telemetry, and nothing is read from one that names no span', () => {
    expect(formatTraceparent(INVALID_SPAN_CONTEXT)).toBeUndefined();
    for (const text of [
      undefined,
      '',
      'garbage',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x',
    ]) {
      expect(parseTraceparent(text)).toBeUndefined();
    }
  });
});
