// A chat-wire failure, wire-neutral, before each wire gives it its own shape: the public code
// (approval_pending for a session waiting on a decision: the table's chat column,
// server/error-codes.ts), status, the field at fault, and whether the official SDKs should
// retry by themselves (docs/internals/wires.md, "Errors").
import { chatCode, errorStatus } from '../../error-codes';
import { HttpError } from '../../http/errors';
import { Refusal } from '../../runtime';

/** The one message both wires answer a call on a session that waits on a decision with (docs/internals/wires.md, "Errors"). */
const APPROVAL_PENDING_MESSAGE = 'This conversation is waiting on a human decision. Resolve it before sending a new message.';

export interface WireError {
  status: number;
  /** The machine-readable code clients switch on (e.g. approval_pending). */
  code: string;
  message: string;
  /** The request field at fault, if one is. */
  param: string | null;
  /** Whether the client's SDK should retry by itself (only a briefly busy session). */
  retryable: boolean;
  /** Extra detail (e.g. the pending interrupt ids). */
  details?: Record<string, unknown>;
}

/** Any failure of a chat-wire request, wire-neutral. Unknown errors are logged and become a 500. */
export function toWireError(error: unknown): WireError {
  if (error instanceof Refusal || error instanceof HttpError) {
    const code = chatCode(error.code, error.details);
    const param = typeof error.details?.param === 'string' ? error.details.param : null;
    // `what` a not_found did not find is in the public code already (session_not_found).
    const details = error.details && Object.fromEntries(Object.entries(error.details).filter(([key]) => key !== 'param' && key !== 'what'));
    return {
      status: error.status,
      code,
      message: code === 'approval_pending' ? APPROVAL_PENDING_MESSAGE : error.message,
      param,
      retryable: code === 'session_busy',
      ...(details && Object.keys(details).length ? { details } : {}),
    };
  }
  console.error('[stackbone] chat wire request failed', error);
  return { status: errorStatus('internal_error'), code: 'internal_error', message: 'The server failed to handle this request.', param: null, retryable: false };
}

/**
 * Headers of an error response. Both official SDKs retry 408/409/429/5xx on their own unless
 * told otherwise; a pending decision or a failed turn will not change by retrying, so they
 * are told not to (a busy session may: it frees up when the running turn ends).
 */
export function errorHeaders(error: WireError): Record<string, string> {
  return error.retryable ? { 'x-should-retry': 'true', 'retry-after-ms': '500' } : { 'x-should-retry': 'false' };
}
