// Typed failures of the runtime. A wire turns each into its own shape (AG-UI RUN_ERROR,
// an OpenAI or Anthropic error body) using `code` and `status`; it never invents rules.
import { randomUUID } from 'node:crypto';
import { errorStatus, type ErrorCode, type ErrorDetails, type FoundCode, type NotFoundDetails } from '../../error-codes';

/**
 * A request the runtime refuses, having written nothing: a run that may not start, a decision,
 * a queue change or guidance it does not take. Its code is from the server's one vocabulary
 * (server/error-codes.ts, docs/errors.md), and so is its status.
 */
export class Refusal extends Error {
  readonly status: number;

  constructor(code: 'not_found', message: string, details: NotFoundDetails);
  constructor(code: FoundCode, message: string, details?: ErrorDetails);
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'Refusal';
    this.status = errorStatus(code);
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
