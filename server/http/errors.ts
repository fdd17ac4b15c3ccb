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
