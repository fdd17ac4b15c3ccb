// The session of a chat-wire request (docs/internals/wires.md, "Sessions: x-stackbone-session"): the
// header that makes a turn durable, and which shape a shared /api/v1 route answers in.
import { HttpError } from '../../http/errors';
import { isSessionId } from '../../runtime';
import type { StartedRun } from '../../runtime';

/** The header that makes a chat turn durable: its value is the session (AG-UI thread) id. */
export const SESSION_HEADER = 'x-stackbone-session';

/** The session key of a request, if it sent one. */
export function readSessionKey(request: Request): string | undefined {
  const raw = request.headers.get(SESSION_HEADER);
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!isSessionId(key)) {
    throw new HttpError('invalid_session_key', `The ${SESSION_HEADER} header must be 1 to 256 printable ASCII characters without spaces.`, {
      param: SESSION_HEADER,
    });
  }
  return key;
}

/** Answers in the Anthropic shape when asked to (?format=anthropic) or when the client speaks it (anthropic-version). */
export function wantsAnthropicShape(request: Request): boolean {
  const format = new URL(request.url).searchParams.get('format');
  if (format === 'anthropic') return true;
  if (format === 'openai') return false;
  return request.headers.has('anthropic-version');
}

/** Headers every chat-wire response carries: which session and run answered. */
export function turnHeaders(run: Pick<StartedRun, 'runId'>, sessionKey: string | undefined): Record<string, string> {
  return { 'x-stackbone-run': run.runId, ...(sessionKey ? { [SESSION_HEADER]: sessionKey } : {}) };
}
