// JSON errors for request/response failures that happen before any stream starts.
// The OpenAI and Anthropic wires have their own error shapes; this is the default one. Codes
// and their statuses are the server's one vocabulary (server/error-codes.ts, docs/errors.md).
import { errorStatus, type ErrorCode, type ErrorDetails, type FoundCode, type NotFoundDetails } from '../error-codes';
import { Refusal } from '../runtime';
import { jsonResponse } from './small-answers';

export class HttpError extends Error {
  readonly status: number;

  constructor(code: 'not_found', message: string, details: NotFoundDetails, headers?: Record<string, string>);
  constructor(code: FoundCode, message: string, details?: ErrorDetails, headers?: Record<string, string>);
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Response headers the answer carries (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = errorStatus(code);
  }
}

export function jsonError(error: HttpError | Refusal): Response {
  const headers = error instanceof HttpError ? error.headers : undefined;
  return jsonResponse({ error: { code: error.code, message: error.message, ...(error.details ?? {}) } }, { status: error.status, headers });
}

/**
 * Any failure of a request, as the JSON error answer: an HttpError or a refusal of the runtime
 * with its status and code, anything else logged (naming `what` failed) and answered 500.
 */
export function errorResponse(error: unknown, what: string): Response {
  if (error instanceof HttpError || error instanceof Refusal) return jsonError(error);
  console.error(`[stackbone] ${what} failed`, error);
  return jsonError(new HttpError('internal_error', 'The server failed to handle this request.'));
}

/** 404 for a path no route serves, or 405 (with Allow) for a known path and another method, in a wire's own error shape. */
export function unknownEndpoint(request: Request, allow: string | undefined, respond: (error: HttpError) => Response): Response {
  const endpoint = `${request.method} ${new URL(request.url).pathname}`;
  if (!allow) return respond(new HttpError('not_found', `Unknown endpoint ${endpoint}.`, { what: 'endpoint' }));
  const response = respond(new HttpError('method_not_allowed', `${endpoint} is not supported: use ${allow}.`));
  response.headers.set('Allow', allow);
  return response;
}
