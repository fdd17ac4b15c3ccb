// A tool call the server runs, as a span (docs/observability.md, "The tool span"): GenAI's
// `execute_tool {tool}`, around the tool's own execute — a call a person denied, or one a stop
// cut before it started, never ran and has none. A call that fails (its error is what the model
// reads) has error status; one that asks a person for input is not a failure.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { inSpan, tracer } from './tracer';

export interface ToolCallFacts {
  toolName: string;
  toolCallId: string;
  /** 1, or more when a crash made it run again (docs/internals/architecture.md, "Recovery"). */
  attempt: number;
}

/** What a tool call came to, as far as its span tells: done, failed (with why), or waiting for a person's input. */
export type ToolCallEnd = { ok: true } | { ok: false; error: string; errorType: string } | { inputRequired: true };

export async function inToolSpan<T>(call: ToolCallFacts, run: () => Promise<T>, endOf: (result: T) => ToolCallEnd): Promise<T> {
  const span = tracer.startSpan(`execute_tool ${call.toolName}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.toolName,
      'gen_ai.tool.call.id': call.toolCallId,
      'gen_ai.tool.type': 'function',
      'stackbone.tool.attempt': call.attempt,
    },
  });
  try {
    const result = await inSpan(span, run);
    const end = endOf(result);
    if ('inputRequired' in end) span.setAttribute('stackbone.tool.input_required', true);
    else if (!end.ok) {
      span.setAttribute('error.type', end.errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: end.error });
    }
    return result;
  } catch (error) {
    span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
