// Typed failures of the runtime. A wire turns each into its own shape (AG-UI RUN_ERROR,
// an OpenAI or Anthropic error body) using `code` and `status`; it never invents rules.
import { randomUUID } from 'node:crypto';

export type RunErrorCode =
  | 'not_found'            // no such session for this owner (or no such agent)
  | 'agent_mismatch'       // the session belongs to another agent
  | 'session_busy'         // another run holds the session
  | 'lease_lost'           // this run's session was taken over by another run (it stalled past its lease)
  | 'invalid_message'      // a message the client may not send, or a malformed one
  | 'tool_result_missing'  // the session waits for a frontend tool result
  | 'unknown_tool_call'    // a tool result for a call that is not open
  | 'invalid_state'        // a shared-state value failed its schema
  | 'model_error'
  | 'max_steps_exceeded'
  | 'internal_error';

/** A run refused before it starts: nothing was written. */
export class RunRejectedError extends Error {
  constructor(
    readonly code: RunErrorCode | (string & {}),
    message: string,
    /** The HTTP status a request/response wire should answer with. */
    readonly status: number = 400,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RunRejectedError';
  }
}

/**
 * Logs a failure whose text is not for clients (a provider's response, a database's message, a
 * stack) under a short reference, and returns the reference: clients and the model get the
 * reference and a code, the server's log has the rest (docs/security.md, "What the server does
 * not tell").
 */
export function logFailure(what: string, error: unknown): string {
  const reference = randomUUID().slice(0, 8);
  console.error(`[stackbone] ${what} (ref ${reference}):`, error);
  return reference;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

const LEASE_LOST = Symbol.for('stackbone.LeaseLostError');

/** A run that lost its session to another run tried to write: refused, nothing is written. */
export class LeaseLostError extends Error {
  readonly [LEASE_LOST] = true;

  /** By brand: Next bundles routes separately, so the error may come from another copy of this class. */
  static is(error: unknown): error is LeaseLostError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[LEASE_LOST] === true;
  }

  constructor(readonly sessionId: string) {
    super(`The run lost session ${sessionId} to another run; it writes nothing more.`);
    this.name = 'LeaseLostError';
  }
}
