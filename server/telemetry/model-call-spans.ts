// Each model call as a span (docs/observability.md, "The model span"): GenAI's `chat {model}`,
// built from the AI SDK's own telemetry lifecycle — the callbacks `streamText` calls around each
// provider call — and attached under the span that was active when the step began (the run's).
//
// AI SDK 7's own integration (`@ai-sdk/otel`) takes each streamText call for an agent invocation
// (`invoke_agent`, step and tool spans around it); the runtime makes one call per step of a run
// that has those spans already (docs/observability.md). This integration is the part it needs: one
// span per provider call with the GenAI attributes and the token usage, and no prompt or output.
import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { LanguageModelCallEndEvent, LanguageModelCallStartEvent, Telemetry, TelemetryOptions } from 'ai';
import { telemetryOn } from './telemetry-on';
import { tracer } from './tracer';

/** `openai.responses` → `openai`: the AI SDK names a provider with its API; GenAI's gen_ai.provider.name is the provider's. */
const providerName = (provider: string) => provider.split('.')[0] ?? provider;

class ModelCallSpans implements Telemetry {
  /** The span of the provider call in flight; a step makes one call at a time (a retry is another). */
  private open: Span | undefined;
  /** What the SDK said failed, when the step does not say better. */
  private failure: unknown;

  constructor(private readonly parent: Context) {}

  onLanguageModelCallStart(event: LanguageModelCallStartEvent & { functionId?: string }): void {
    // A call still open when another starts did not end well: the SDK tries again.
    this.close(this.failure ?? new Error('The model call was tried again.'));
    this.failure = undefined;
    this.open = tracer.startSpan(
      `chat ${event.modelId}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': providerName(event.provider),
          'gen_ai.request.model': event.modelId,
          ...(event.functionId ? { 'gen_ai.agent.name': event.functionId } : {}),
          ...(event.maxOutputTokens !== undefined ? { 'gen_ai.request.max_tokens': event.maxOutputTokens } : {}),
          ...(event.temperature != null ? { 'gen_ai.request.temperature': event.temperature } : {}),
        },
      },
      this.parent,
    );
  }

  /** The provider's HTTP request runs in the call's span, so an instrumented fetch nests under it. */
  executeLanguageModelCall<T>({ execute }: { execute: () => PromiseLike<T> }): PromiseLike<T> {
    return this.open ? context.with(trace.setSpan(this.parent, this.open), execute) : execute();
  }

  onLanguageModelCallEnd(event: LanguageModelCallEndEvent): void {
    const span = this.open;
    if (!span) return;
    const { usage } = event;
    const counts = {
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': usage.inputTokenDetails?.cacheReadTokens,
      'gen_ai.usage.reasoning.output_tokens': usage.outputTokenDetails?.reasoningTokens,
    };
    span.setAttributes({
      'gen_ai.response.model': event.modelId,
      'gen_ai.response.id': event.responseId,
      'gen_ai.response.finish_reasons': [event.finishReason],
      ...Object.fromEntries(Object.entries(counts).filter(([, count]) => Number.isFinite(count))),
    });
    this.close(undefined);
  }

  /**
   * The SDK passes `{ callId, error }`, its error replaced by a generic one (no outputs are recorded):
   * kept, and the span left for the step to close with its own failure (`done`).
   */
  onError(event: unknown): void {
    this.failure = event !== null && typeof event === 'object' && 'error' in event ? event.error : event;
  }

  onAbort(): void {
    this.open?.setAttribute('stackbone.model.aborted', true);
    this.close(undefined);
  }

  onEnd(): void {
    this.close(this.failure);
  }

  /** Ends the open span, failed with `error` when there is one; once the step is `done`, with its failure, else the SDK's. */
  close(error: unknown, done = false): void {
    if (done) error ??= this.failure;
    const span = this.open;
    if (!span) return;
    this.open = undefined;
    if (error !== undefined) {
      span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    }
    span.end();
  }
}

/**
 * The `telemetry` option of one model step's `streamText` call for `agent`'s model: its spans
 * under the span active now, the agent named as the SDK's `functionId`. Undefined with telemetry
 * off: the SDK then calls no integration (none is registered globally). `done` closes a span the
 * SDK left open (a stream the step stopped reading), failed with the step's error when it has one.
 */
export function modelCallTelemetry(agent: string): { options: TelemetryOptions; done: (failure?: unknown) => void } | undefined {
  if (!telemetryOn()) return undefined;
  const spans = new ModelCallSpans(context.active());
  return {
    options: { isEnabled: true, functionId: agent, recordInputs: false, recordOutputs: false, integrations: [spans] },
    done: (failure) => spans.close(failure, true),
  };
}
