// A run as a span (docs/observability.md, "The run span"): GenAI's `invoke_agent {agent}`, from
// the moment the run takes the session to the moment it writes its end. The model calls and tool
// calls of the run, its delegated tasks' included, are its children. A run that goes on after
// decisions links to each approval span this process emitted for them and to the run that paused.
//
// A run is the root of a trace of its own, linked to the request that started it: it belongs to
// its session, not to that request, and goes on after the response (a decision's continuation
// does). As the request's child it would be cut short: @vercel/otel ends a trace's open spans
// when its root span ends.
import { isSpanContextValid, SpanKind, SpanStatusCode, trace, type Link, type Span } from '@opentelemetry/api';
import { takeApprovalLinks } from './approval-span';
import { parseTraceparent } from './traceparent';
import { tracer } from './tracer';

export interface RunFacts {
  agent: string;
  /** The session's key, as its owner names it. */
  conversationId: string;
  runId: string;
  /** The model string the run's root thread runs on. */
  model: string;
  /** Which wire or path started it (agui, openai, anthropic, hitl, server, mcp). */
  source: string;
  /** The paused run this one goes on from, and its interrupts decided since, with the traceparent each was opened under. */
  resumes?: { runId: string; interrupts: { id: string; traceparent?: string }[] };
}

/** How a run ended, as its log says: an outcome, or a failure with its code; neither when it could not write its end. */
export interface RunEnd {
  outcome?: { type: string };
  error?: { code: string; message: string };
}

/** The approvals and the paused run a continuation goes on from, then the request that started it (the span active now). */
function runLinks(resumes: RunFacts['resumes']): Link[] {
  const links = resumes ? takeApprovalLinks(resumes.interrupts.map((interrupt) => interrupt.id)) : [];
  const pausedRun = resumes?.interrupts.map((interrupt) => parseTraceparent(interrupt.traceparent)).find((found) => found !== undefined);
  if (pausedRun) links.push({ context: pausedRun, attributes: { 'stackbone.link': 'paused_run' } });
  const request = trace.getActiveSpan()?.spanContext();
  if (request && isSpanContextValid(request)) links.push({ context: request, attributes: { 'stackbone.link': 'request' } });
  return links;
}

export function startRunSpan(facts: RunFacts): Span {
  return tracer.startSpan(`invoke_agent ${facts.agent}`, {
    kind: SpanKind.INTERNAL,
    root: true,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': facts.agent,
      'gen_ai.conversation.id': facts.conversationId,
      'gen_ai.request.model': facts.model,
      'stackbone.run.id': facts.runId,
      'stackbone.run.source': facts.source,
      ...(facts.resumes ? { 'stackbone.run.resumes': facts.resumes.runId } : {}),
    },
    links: runLinks(facts.resumes),
  });
}

export function endRunSpan(span: Span, end: RunEnd | undefined): void {
  if (end?.error) {
    span.setAttributes({ 'stackbone.run.outcome': 'failed', 'error.type': end.error.code });
    span.setStatus({ code: SpanStatusCode.ERROR, message: end.error.message });
  } else if (end?.outcome) {
    span.setAttribute('stackbone.run.outcome', end.outcome.type);
  } else {
    // Another run took the session over (this server stalled past its lease), or its last write failed.
    span.setAttributes({ 'stackbone.run.outcome': 'unfinished', 'error.type': 'unfinished' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'The run ended without writing its outcome (it lost its lease, or its last write failed).' });
  }
  span.end();
}
