// What a session (AG-UI thread) id may be, on every wire (docs/wires.md, "Sessions"): printable
// ASCII without spaces, 1 to 256 characters — like any id a client would put in a URL or a
// header. Run ids follow the same rule.

export const SESSION_ID = /^[\x21-\x7e]{1,256}$/;

/** The message wires give when an id breaks the rule. */
export const SESSION_ID_RULE = 'must be 1 to 256 printable ASCII characters without spaces';

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}
