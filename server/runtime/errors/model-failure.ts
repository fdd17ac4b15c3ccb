// What a failed model call tells a client (docs/security.md, "What the server does not tell"):
// the HTTP status the provider answered, if it answered with an error, and whether running the
// turn again may go through. Never the provider's own text, which goes to the server's log.
import { RetryError } from 'ai';
import { StepTimeoutError } from './step-timeout';

export interface ModelFailure {
  /** The provider's error status (429, 500, 529…); absent when it sent none (a cut stream). */
  status?: number;
  /**
   * A Retry may succeed: the provider was busy, rate-limited, failing or unreachable. False when
   * it refused the request itself (a bad key, a model it does not have, a request it rejects):
   * the same request fails the same way.
   */
  retryable: boolean;
  /** The call ran past the agent's stepTimeout, in ms (the provider never answered in time). */
  timedOutAfterMs?: number;
}

export function modelFailure(error: unknown): ModelFailure {
  // The AI SDK gave up after its retries: the last attempt's error says what happened.
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (last instanceof StepTimeoutError) return { retryable: true, timedOutAfterMs: last.timeoutMs };
  // APICallError (a dropped connection is one, retryable) and a provider's stream error
  // (@ai-sdk/provider-utils) carry both fields; anything else is not known to pass.
  const { statusCode, isRetryable } = (typeof last === 'object' && last !== null ? last : {}) as { statusCode?: unknown; isRetryable?: unknown };
  const status = typeof statusCode === 'number' && statusCode >= 400 ? statusCode : undefined;
  return { ...(status !== undefined ? { status } : {}), retryable: isRetryable === true };
}
