// The roles users hold (docs/users-and-roles.md, "Roles"), in the UserRole table: given by an
// admin (Studio → Team, `npx stackbone users role`) or by the configuration at sign-up
// (seeded-roles.ts). Approval policies name them: `approvers: ['role:finance']`.
import { withAppDatabase } from '../store/app-database';
import { ROLE_WORD, seededRolesOf } from './seeded-roles';

/** Gives a new user the roles the configuration names their address for. */
export async function giveSeededRoles(userId: string, email: string): Promise<void> {
  const roles = seededRolesOf(email);
  if (roles.length === 0) return;
  await withAppDatabase((db) => db.userRole.createMany({ data: roles.map((role) => ({ userId, role })) }));
}

/** Gives (or, with `remove`, takes) a role of the user with this address; false when nobody has it. */
export async function setRole(email: string, role: string, remove = false): Promise<boolean> {
  if (!ROLE_WORD.test(role)) throw new Error(`"${role}" is not a role: letters, digits, "_", ".", "-"; at most 64.`);
  return withAppDatabase(async (db) => {
    const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
    if (!user) return false;
    if (remove) await db.userRole.deleteMany({ where: { userId: user.id, role } });
    else await db.userRole.upsert({ where: { userId_role: { userId: user.id, role } }, create: { userId: user.id, role }, update: {} });
    return true;
  });
}

export interface TeamMember {
  id: string;
  email: string;
  name: string;
  roles: string[];
  createdAt: Date;
}

/** Signed-up users (never guests) with their roles, newest first. */
export async function listTeam(limit = 200): Promise<TeamMember[]> {
  const rows = await withAppDatabase((db) =>
    db.user.findMany({
      where: { OR: [{ isAnonymous: false }, { isAnonymous: null }] },
      orderBy: { createdAt: 'desc' },
      take: limit,
      select: { id: true, email: true, name: true, createdAt: true, roles: { select: { role: true }, orderBy: { role: 'asc' } } },
    }),
  );
  return rows.map((row) => ({ ...row, roles: row.roles.map((entry) => entry.role) }));
}
