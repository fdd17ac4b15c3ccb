// The wait for a person as a span of its own (docs/observability.md, "The approval span"): from
// the moment the interrupt opened to the moment its decision was recorded, emitted once the
// decision is in the log, by the process that recorded it — which need not be the one that
// paused. It links to the run that paused through the traceparent kept with the interrupt, and
// the run that goes on after the decision links to it (run-span.ts), when that run starts in the
// process that recorded the decision, as a decision's continuation does.
import { SpanKind, type Link, type SpanContext } from '@opentelemetry/api';
import { parseTraceparent } from './traceparent';
import { tracer } from './tracer';

/** A decided interrupt, as the approval span tells it. */
export interface DecidedInterrupt {
  interruptId: string;
  /** Why the run paused: an approval (`tool_call`, `confirmation`) or a tool's question (`input_required`). */
  reason: string;
  toolName: string;
  toolCallId: string;
  agent: string;
  /** The session's key, as its owner names it. */
  conversationId: string;
  /** The run that paused. */
  runId: string;
  /** What became of it, in the log's words: approved, denied, cancelled, or expired (its default action). */
  decision: 'approved' | 'denied' | 'cancelled' | 'expired';
  /** The same as the metrics count it: approve, edit, reject, cancel, expire (approval-metrics.ts). */
  outcome: string;
  /** Where the decision came from: the decider's path (agui, hitl, studio, link, mcp, server, expiry, …). */
  channel: string;
  openedAt: Date;
  decidedAt: Date;
  /** The paused run's span, as kept with the interrupt (traceparent.ts). */
  pausedRun?: string;
}

/**
 * The approval spans this process emitted, by interrupt id, until the run that goes on after them
 * takes them; on globalThis, as the store is (server/store/index.ts): each route's bundle has its
 * own copy of this module. Bounded: a decision whose run goes on in another process is never taken.
 */
const shared = globalThis as typeof globalThis & { __stackboneApprovalSpans?: Map<string, SpanContext> };
const emitted = (shared.__stackboneApprovalSpans ??= new Map());
const KEPT = 1_000;

export function recordApprovalSpan(decided: DecidedInterrupt): void {
  const pausedRun = parseTraceparent(decided.pausedRun);
  const span = tracer.startSpan(`approval ${decided.toolName}`, {
    kind: SpanKind.INTERNAL,
    startTime: decided.openedAt,
    attributes: {
      'gen_ai.tool.name': decided.toolName,
      'gen_ai.tool.call.id': decided.toolCallId,
      'gen_ai.agent.name': decided.agent,
      'gen_ai.conversation.id': decided.conversationId,
      'stackbone.run.id': decided.runId,
      'stackbone.interrupt.id': decided.interruptId,
      'stackbone.interrupt.reason': decided.reason,
      'stackbone.approval.decision': decided.decision,
      'stackbone.approval.outcome': decided.outcome,
      'stackbone.approval.channel': decided.channel,
      'stackbone.approval.time_to_decide_ms': Math.max(0, decided.decidedAt.getTime() - decided.openedAt.getTime()),
    },
    links: pausedRun ? [{ context: pausedRun, attributes: { 'stackbone.link': 'paused_run' } }] : [],
  });
  span.end(decided.decidedAt);
  emitted.set(decided.interruptId, span.spanContext());
  if (emitted.size > KEPT) emitted.delete(emitted.keys().next().value!);
}

/** Links to the approval spans this process emitted for these interrupts; each is taken once. */
export function takeApprovalLinks(interruptIds: readonly string[]): Link[] {
  return interruptIds.flatMap((interruptId) => {
    const context = emitted.get(interruptId);
    if (!context) return [];
    emitted.delete(interruptId);
    return [{ context, attributes: { 'stackbone.link': 'approval', 'stackbone.interrupt.id': interruptId } }];
  });
}
