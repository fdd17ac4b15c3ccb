// Errors in OpenAI's shape: {error: {message, type, param, code}} with OpenAI's status codes.
import { errorHeaders, toWireError, type WireError } from '../chat/wire-error';
import { jsonResponse } from '../../http/small-answers';

function typeFor(status: number): string {
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function openAiErrorBody(error: WireError) {
  // Exactly OpenAI's four keys: clients compare bodies, and docs/internals/wires.md ("Errors") fixes the 409's.
  return { error: { message: error.message, type: typeFor(error.status), param: error.param, code: error.code } };
}

export function openAiErrorResponse(failure: unknown): Response {
  const error = toWireError(failure);
  return jsonResponse(openAiErrorBody(error), { status: error.status, headers: errorHeaders(error) });
}
