// JSON errors for request/response failures that happen before any stream starts.
// The OpenAI and Anthropic wires have their own error shapes; this is the default one.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function jsonError(error: HttpError): Response {
  return Response.json({ error: { code: error.code, message: error.message, ...(error.details ?? {}) } }, { status: error.status });
}

/** 404 for a path no route serves, or 405 (with Allow) for a known path and another method, in a wire's own error shape. */
export function unknownEndpoint(request: Request, allow: string | undefined, respond: (error: HttpError) => Response): Response {
  const endpoint = `${request.method} ${new URL(request.url).pathname}`;
  if (!allow) return respond(new HttpError(404, 'unknown_endpoint', `Unknown endpoint ${endpoint}.`));
  const response = respond(new HttpError(405, 'method_not_allowed', `${endpoint} is not supported: use ${allow}.`));
  response.headers.set('Allow', allow);
  return response;
}
