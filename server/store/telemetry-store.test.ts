// The store's telemetry (docs/observability.md): a decision written becomes an approval span from
// the pause's opening to the decision, linked to the run that paused, and the run that goes on
// links to it; the metrics count what was opened and decided and read what waits from the store.
// Registers an SDK of its own for the whole process (vitest.config.ts, OWN_PROCESS).
import { randomUUID } from 'node:crypto';
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatTraceparent, startRunSpan } from '../telemetry';
import { interruptRecord } from './conformance/support';
import type { Decision } from './pauses';
import type { EventStore } from './types';
import { createMemoryStore } from './memory-store';
import { decisionOutcome, telemetryStore } from './telemetry-store';

class CollectingReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

const spans = new InMemorySpanExporter();
const reader = new CollectingReader();
/** One store, as a process has: the pending count is observed once per process, once the SDK is registered (approval-metrics.ts). */
let store: EventStore;

beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  store = telemetryStore(createMemoryStore());
});
afterEach(() => spans.reset());

/** The data points of one metric, as a collection now finds them. */
async function points(name: string): Promise<DataPoint<unknown>[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics.filter((metric) => metric.descriptor.name === name).flatMap((metric) => metric.dataPoints as DataPoint<unknown>[]),
  );
}

const valueFor = (found: DataPoint<unknown>[], attributes: Record<string, string>) =>
  found.find((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))?.value;

describe('the approval span and metrics a store with telemetry writes (docs/observability.md)', () => {
  it('spans a pause from its opening to its decision, linked to the run that paused; the run that goes on links to both', async () => {
    const sessionId = `owner-1/thread-${randomUUID()}`;
    await store.ensureSession({ id: sessionId, ownerId: 'owner-1', agent: 'helpdesk' });
    const paused = startRunSpan({ agent: 'helpdesk', conversationId: 'thread', runId: 'run-1', model: 'scripted', source: 'agui' });
    const traceparent = formatTraceparent(paused.spanContext())!;
    paused.end();
    const record = interruptRecord({ toolName: 'closeTicket', runId: 'run-1', agent: 'helpdesk', traceparent });
    const opened = await store.append(sessionId, 0, [{ type: 'interrupts_opened', interrupts: [record] }], { status: 'interrupted' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const decision: Decision = { status: 'approved', editedArgs: { ticketId: 'T-8' }, by: { source: 'studio' } };
    const decided = await store.append(sessionId, 1, [{ type: 'interrupt_decided', interruptId: record.id, decision }]);

    const approval = spans.getFinishedSpans().find((span) => span.name === 'approval closeTicket')!;
    expect(approval.attributes).toMatchObject({
      'gen_ai.tool.name': 'closeTicket',
      'gen_ai.tool.call.id': record.toolCallId,
      'gen_ai.conversation.id': sessionId.slice('owner-1/'.length),
      'stackbone.interrupt.id': record.id,
      'stackbone.run.id': 'run-1',
      'stackbone.approval.decision': 'approved',
      'stackbone.approval.outcome': 'edit',
      'stackbone.approval.channel': 'studio',
    });
    const waitedMs = Date.parse(decided.at) - Date.parse(opened.at);
    expect(approval.attributes['stackbone.approval.time_to_decide_ms']).toBe(waitedMs);
    expect(waitedMs).toBeGreaterThanOrEqual(25);
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    expect(ms(approval.startTime)).toBeCloseTo(Date.parse(opened.at), 0);
    expect(ms(approval.endTime)).toBeCloseTo(Date.parse(decided.at), 0);
    expect(approval.links.map((link) => link.context.spanId)).toEqual([paused.spanContext().spanId]);

    const continuation = startRunSpan({
      agent: 'helpdesk',
      conversationId: 'thread',
      runId: 'run-2',
      model: 'scripted',
      source: 'hitl',
      resumes: { runId: 'run-1', interrupts: [{ id: record.id, traceparent }] },
    });
    continuation.end();
    const links = spans.getFinishedSpans().find((span) => span.attributes['stackbone.run.id'] === 'run-2')!.links;
    expect(links.map((link) => [link.attributes?.['stackbone.link'], link.context.spanId])).toEqual([
      ['approval', approval.spanContext().spanId],
      ['paused_run', paused.spanContext().spanId],
    ]);
  });

  it('counts pauses opened and decided by tool and outcome, times each decision, and reports what waits now from the store', async () => {
    const sessionId = `owner-1/thread-${randomUUID()}`;
    await store.ensureSession({ id: sessionId, ownerId: 'owner-1', agent: 'helpdesk' });
    const tool = `refund-${randomUUID()}`;
    const [first, second, third] = [interruptRecord({ toolName: tool }), interruptRecord({ toolName: tool }), interruptRecord({ toolName: tool })];
    await store.append(sessionId, 0, [{ type: 'interrupts_opened', interrupts: [first, second, third] }]);
    await store.append(sessionId, 1, [
      { type: 'interrupt_decided', interruptId: first.id, decision: { status: 'denied', by: { source: 'hitl' } } },
      { type: 'interrupt_decided', interruptId: second.id, decision: { status: 'denied', expired: true, by: { source: 'expiry' } } },
    ]);

    expect(valueFor(await points('stackbone.approvals.opened'), { 'gen_ai.tool.name': tool })).toBe(3);
    const decided = await points('stackbone.approvals.decided');
    expect(valueFor(decided, { 'gen_ai.tool.name': tool, 'stackbone.approval.outcome': 'reject' })).toBe(1);
    expect(valueFor(decided, { 'gen_ai.tool.name': tool, 'stackbone.approval.outcome': 'expire' })).toBe(1);
    const timed = valueFor(await points('stackbone.approval.time_to_decide'), {
      'gen_ai.tool.name': tool,
      'stackbone.approval.outcome': 'reject',
    }) as Histogram;
    expect(timed.count).toBe(1);
    expect(valueFor(await points('stackbone.approvals.pending'), { 'gen_ai.tool.name': tool })).toBe(1);
    // The last one decided, the tool reports 0 rather than its last count.
    await store.append(sessionId, 3, [{ type: 'interrupt_decided', interruptId: third.id, decision: { status: 'approved', by: { source: 'hitl' } } }]);
    expect(valueFor(await points('stackbone.approvals.pending'), { 'gen_ai.tool.name': tool })).toBe(0);
  });

  it('names each kind of decision as the span and the metrics do', () => {
    const by = { source: 'hitl' } as const;
    expect(decisionOutcome({ status: 'approved', by })).toEqual({ decision: 'approved', outcome: 'approve' });
    expect(decisionOutcome({ status: 'approved', editedArgs: {}, by })).toEqual({ decision: 'approved', outcome: 'edit' });
    expect(decisionOutcome({ status: 'denied', by })).toEqual({ decision: 'denied', outcome: 'reject' });
    expect(decisionOutcome({ status: 'cancelled', by })).toEqual({ decision: 'cancelled', outcome: 'cancel' });
    expect(decisionOutcome({ status: 'approved', expired: true, by: { source: 'expiry' } })).toEqual({ decision: 'expired', outcome: 'expire' });
  });
});
