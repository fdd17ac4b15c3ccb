// Errors in the Anthropic Messages shape: {type: 'error', error: {type, message, details}}.
// `details.error_code` carries the stable code: the official SDK exposes it as
// APIError.errorCode (and the whole body as .error).
import { errorHeaders, toWireError, type WireError } from '../chat/wire-error';
import { jsonResponse } from '../../http/small-answers';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export function anthropicErrorType(status: number): string {
  return TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function anthropicErrorBody(error: WireError) {
  return {
    type: 'error' as const,
    error: {
      type: anthropicErrorType(error.status),
      message: error.message,
      details: { error_code: error.code, ...(error.param ? { param: error.param } : {}), ...(error.details ?? {}) },
    },
    request_id: null,
  };
}

export function anthropicErrorResponse(failure: unknown): Response {
  const error = toWireError(failure);
  return jsonResponse(anthropicErrorBody(error), { status: error.status, headers: errorHeaders(error) });
}
