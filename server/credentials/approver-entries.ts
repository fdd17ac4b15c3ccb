// The entries of an approvers list (docs/approvals.md, "Quorum and separation of duties";
// docs/users-and-roles.md, "Approvers by role"): `role:<role>` a user holding that role, `members`
// any signed-up user, `key:<name-or-group>` a key of STACKBONE_API_KEYS so labelled. Read here
// once, for the three that need it: the agent's definition checks a list (authoring/tool-approval.ts),
// the runtime matches a decider against it (runtime/decisions/who-may-decide.ts), the store finds
// the people it names (store/prisma-people.ts).
import { LABEL_WORD } from './open-dev-mode';

/**
 * The role of a deployment's operators (STACKBONE_ADMIN_EMAILS gives it): they give roles, and
 * decide what is kept for key holders as a key would (runtime/decisions/who-may-decide.ts).
 */
export const ADMIN_ROLE = 'admin';

export type ApproverEntry = { kind: 'role'; role: string } | { kind: 'members' } | { kind: 'key'; word: string };

/** An entry as it is meant, or undefined for one that is not an entry at all. */
export function readApproverEntry(entry: unknown): ApproverEntry | undefined {
  if (entry === 'members') return { kind: 'members' };
  if (typeof entry !== 'string') return undefined;
  const colon = entry.indexOf(':');
  const word = entry.slice(colon + 1);
  if (colon < 0 || !LABEL_WORD.test(word)) return undefined;
  const prefix = entry.slice(0, colon);
  if (prefix === 'role') return { kind: 'role', role: word };
  if (prefix === 'key') return { kind: 'key', word };
  return undefined;
}

/** The entries of a list that read (a stored list was checked when its agent was defined). */
export function readApproverEntries(approvers: readonly string[]): ApproverEntry[] {
  return approvers.flatMap((entry) => readApproverEntry(entry) ?? []);
}
