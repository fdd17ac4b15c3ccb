// Session ids (docs/security.md, "Owners and their ids"). A client names its session — an AG-UI
// threadId, the chat wires' x-stackbone-session, a path's {key} — with a key of its own choosing:
// printable ASCII without spaces, 1 to 256 characters, like any id a client would put in a URL
// or a header (run ids follow the same rule). Keys are chosen by clients, so each owner has a
// namespace of its own: the session is stored as `<owner id>/<key>`, and two owners may use the
// same key without ever seeing, locking or learning of each other's session. Everything a
// client reads back names the session by its key again.
import { Refusal } from '../errors';

export const SESSION_ID = /^[\x21-\x7e]{1,256}$/;

/** The message wires give when an id breaks the rule. */
export const SESSION_ID_RULE = 'must be 1 to 256 printable ASCII characters without spaces';

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/**
 * The stored id of an owner's session key. Owner ids (`local`, `key:<hash>`, `browser:<uuid>`)
 * never hold a `/`, so the first one in a stored id ends the owner's part.
 */
export function scopedSessionId(ownerId: string, key: string): string {
  if (ownerId.includes('/')) throw new Error(`An owner id holds no "/" (got "${ownerId}").`);
  return `${ownerId}/${key}`;
}

/** The key a client named a session by, from its stored id. */
export function sessionKeyOf(sessionId: string): string {
  const slash = sessionId.indexOf('/');
  return slash < 0 ? sessionId : sessionId.slice(slash + 1);
}

/** The owner a stored session id belongs to. */
export function ownerOfSessionId(sessionId: string): string | undefined {
  const slash = sessionId.indexOf('/');
  return slash < 0 ? undefined : sessionId.slice(0, slash);
}

/**
 * Refuses an id a client chose that breaks the rule above — `invalid_id` naming the field, or
 * `invalid_run_id` for a run's: a message's, a queued message's or guidance's id, a retryId, a
 * fork's message. One rule for every id a client names, written or looked up, so that none
 * reaches the database that a URL could not carry (PostgreSQL's text holds no NUL: such an id
 * was a 500 there, docs/security.md, "What a request may carry").
 */
export function checkClientId(value: unknown, field: string, code: 'invalid_id' | 'invalid_run_id' = 'invalid_id'): asserts value is string {
  if (isSessionId(value)) return;
  const got = typeof value === 'string' ? `${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''}` : typeof value;
  throw new Refusal(code, `${field}: ${SESSION_ID_RULE} (got ${got}).`, { field });
}
