// A refused file as the HTTP answer (docs/errors.md): the attachments' own refusal, with its code
// and message, and Retry-After when trying again later may succeed.
import { AttachmentRefusal } from '../../attachments';
import type { ErrorDetails } from '../../error-codes';
import { HttpError } from '../../http/errors';

/** `error` as the route answers it: an AttachmentRefusal becomes its HttpError (with `details`); anything else is as it was. */
export function answerOf(error: unknown, details?: ErrorDetails): unknown {
  if (!(error instanceof AttachmentRefusal)) return error;
  const headers = error.retryAfterSeconds !== undefined ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined;
  return new HttpError(error.code, error.message, details, headers);
}
