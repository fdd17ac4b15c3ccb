// A response is a run, and its session is the thread (docs/internals/wires.md, "The Responses wire"):
// its id carries both, `resp_<session key, base64url>.<run id>`, so any server process finds the
// run from the id alone, under the caller's own owner scope (another owner's id names a session
// of theirs that is not found). A stateless response (store: false) has no session: `resp_<run id>`.
import { HttpError } from '../../http/errors';
import { isSessionId } from '../../runtime';

const PREFIX = 'resp_';

export interface ResponseRef {
  sessionKey: string;
  runId: string;
}

export function responseId(runId: string, sessionKey: string | undefined): string {
  return sessionKey === undefined ? `${PREFIX}${runId}` : `${PREFIX}${Buffer.from(sessionKey).toString('base64url')}.${runId}`;
}

/** What no response of this caller is: OpenAI's 404 (`response_not_found`). */
export function responseNotFound(id: string, param?: string): HttpError {
  return new HttpError('not_found', `No response found with id '${id}'.`, { what: 'response', ...(param ? { param } : {}) });
}

/** The session and run an id names; a malformed id, or a stateless response's, is not found. */
export function readResponseId(id: string, param?: string): ResponseRef {
  const dot = id.indexOf('.');
  if (!id.startsWith(PREFIX) || dot < 0) throw responseNotFound(id, param);
  const sessionKey = Buffer.from(id.slice(PREFIX.length, dot), 'base64url').toString();
  const runId = id.slice(dot + 1);
  if (!isSessionId(sessionKey) || !runId) throw responseNotFound(id, param);
  return { sessionKey, runId };
}
