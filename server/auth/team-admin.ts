// Who may give and take roles (docs/users-and-roles.md, "Roles"): a user with the `admin` role
// (STACKBONE_ADMIN_EMAILS makes them at sign-up), a service key — an operator's, like the CLI's —,
// and in open dev mode the local owner (one machine, its developer).
import type { Caller } from '../identity/owner';
import { ADMIN_ROLE } from '../credentials/approver-entries';

export function mayManageTeam(caller: Pick<Caller, 'credential' | 'roles'>): boolean {
  if (caller.credential === 'local' || caller.credential === 'key') return true;
  return caller.credential === 'user' && (caller.roles ?? []).includes(ADMIN_ROLE);
}
