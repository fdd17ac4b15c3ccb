// JSON errors for request/response failures that happen before any stream starts.
// The OpenAI and Anthropic wires have their own error shapes; this is the default one.
import { RunRejectedError } from '../runtime';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers the answer carries (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function jsonError(error: HttpError): Response {
  return Response.json({ error: { code: error.code, message: error.message, ...(error.details ?? {}) } }, { status: error.status, headers: error.headers });
}

/**
 * Any failure of a request, as the JSON error answer: an HttpError as it is, a refusal of the
 * runtime (RunRejectedError) with its status and code, anything else logged (naming `what`
 * failed) and answered 500.
 */
export function errorResponse(error: unknown, what: string): Response {
  if (error instanceof HttpError) return jsonError(error);
  if (error instanceof RunRejectedError) return jsonError(new HttpError(error.status, error.code, error.message, error.details));
  console.error(`[stackbone] ${what} failed`, error);
  return jsonError(new HttpError(500, 'internal_error', 'The server failed to handle this request.'));
}

/** 404 for a path no route serves, or 405 (with Allow) for a known path and another method, in a wire's own error shape. */
export function unknownEndpoint(request: Request, allow: string | undefined, respond: (error: HttpError) => Response): Response {
  const endpoint = `${request.method} ${new URL(request.url).pathname}`;
  if (!allow) return respond(new HttpError(404, 'unknown_endpoint', `Unknown endpoint ${endpoint}.`));
  const response = respond(new HttpError(405, 'method_not_allowed', `${endpoint} is not supported: use ${allow}.`));
  response.headers.set('Allow', allow);
  return response;
}
