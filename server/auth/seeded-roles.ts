// Roles the configuration gives by address (docs/users-and-roles.md, "Roles"):
// STACKBONE_ADMIN_EMAILS makes admins, STACKBONE_ROLES (`finance=alice@x,bob@x;ops=carol@x`)
// any role, for a headless or test deployment where nobody opens Studio to give them.
import { setting } from '../config';
import { ADMIN_ROLE } from '../credentials/approver-entries';
import { LABEL_WORD } from '../credentials/open-dev-mode';

/** A role: letters, digits, `_`, `.`, `-`; at most 64 (what `approvers: ['role:…']` may name). */
export const ROLE_WORD = LABEL_WORD;

const addresses = (list: string) =>
  list
    .split(',')
    .map((address) => address.trim().toLowerCase())
    .filter(Boolean);

/** Throws what is wrong with STACKBONE_ROLES, so a server given a malformed one does not start. */
export function checkSeededRoles(): void {
  parseRoles(setting('STACKBONE_ROLES') ?? '');
}

/** STACKBONE_ROLES read: role → addresses. A malformed entry throws (the start checks say which). */
function parseRoles(value: string): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const raw of value.split(';')) {
    const entry = raw.trim();
    if (!entry) continue;
    const at = entry.indexOf('=');
    const role = entry.slice(0, at).trim();
    if (at < 0 || !ROLE_WORD.test(role))
      throw new Error(`STACKBONE_ROLES: "${entry}" is not "role=address,address" (a role: letters, digits, "_", ".", "-"; entries separated by ";").`);
    const bad = addresses(entry.slice(at + 1)).find((address) => !address.includes('@'));
    if (bad !== undefined) throw new Error(`STACKBONE_ROLES: "${bad}" (in the "${role}" entry) is not an email address.`);
    roles.set(role, [...(roles.get(role) ?? []), ...addresses(entry.slice(at + 1))]);
  }
  return roles;
}

/** The roles the configuration gives an address: admin by STACKBONE_ADMIN_EMAILS, the rest by STACKBONE_ROLES. */
export function seededRolesOf(email: string): string[] {
  const address = email.trim().toLowerCase();
  const given = new Set<string>();
  if (addresses(setting('STACKBONE_ADMIN_EMAILS') ?? '').includes(address)) given.add(ADMIN_ROLE);
  for (const [role, members] of parseRoles(setting('STACKBONE_ROLES') ?? '')) if (members.includes(address)) given.add(role);
  return [...given];
}
