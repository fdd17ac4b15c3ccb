// A failure as the chat shows it, and what each failure means for the store: whether the same
// request may get past it, whether the run itself failed (retry() runs it again), and whether
// the server's thread moved on without this tab. The codes are the server's (docs/errors.md).
import type { ErrorCode } from '@/server/error-codes';
import type { RunFailureDetails } from '@/server/store/events';

export interface AgentError {
  message: string;
  /** The RUN_ERROR code, or the JSON error code of a refused request. */
  code?: string;
  /** A request between turns was refused (a queue change, a state write, a decision); no run failed. */
  refused?: true;
  /** A model_error's: the server log's reference, and whether a Retry may go through (RUN_ERROR metadata, the hydration JSON). */
  details?: RunFailureDetails;
}

/** The RUN_ERROR metadata a model_error carries, if it is well formed. */
export function failureDetails(metadata: unknown): RunFailureDetails | undefined {
  const { reference, retryable } = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as Partial<Record<string, unknown>>;
  return typeof reference === 'string' && typeof retryable === 'boolean' ? { reference, retryable } : undefined;
}

/**
 * A failure that the same request may get past: the connection (no code), a thread busy with
 * another run, a server fault. Every other code refuses the decisions themselves (an expiry, a
 * changed tool, a failed schema, a decision made elsewhere): resending them fails again.
 */
export function isRetryable(error: AgentError): boolean {
  return error.code === undefined || RETRYABLE.has(error.code);
}

const RETRYABLE = new Set<string>(['session_busy', 'internal_error'] satisfies ErrorCode[]);

/** The run failed on the server (not a request it refused): a retry runs it again. */
export function isRunFailure(error: AgentError | null): boolean {
  return error?.code !== undefined && RUN_FAILURES.has(error.code);
}

const RUN_FAILURES = new Set<string>(['model_error', 'internal_error', 'max_steps_exceeded'] satisfies ErrorCode[]);

/**
 * A resume refusal meaning the server's thread no longer waits on what this tab shows. A resume's
 * RUN_ERROR `not_found` is an interrupt's: an unknown thread is an HTTP 404, before any stream.
 */
export function threadMovedOn(code: string | undefined): boolean {
  return code !== undefined && THREAD_MOVED_ON.has(code);
}

const THREAD_MOVED_ON = new Set<string>(['interrupt_expired', 'interrupt_already_decided', 'not_found'] satisfies ErrorCode[]);

/** HttpAgent rejects with `HTTP <status>: <body>` and a parsed `payload` for refused requests. */
export function toAgentError(error: unknown): AgentError {
  const payload = (error as { payload?: { error?: { message?: unknown; code?: unknown } } } | null)?.payload?.error;
  if (payload && typeof payload.message === 'string') {
    return { message: payload.message, ...(typeof payload.code === 'string' ? { code: payload.code } : {}) };
  }
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
