// The people the approval rules reach through the store (docs/users-and-roles.md, "Links belong
// to people"): the signed-up user an approval link was mailed to, and the addresses of those a
// list of approvers names by role. Better Auth writes these tables (server/auth/); the store reads
// them on the same connection and in the same turn as the log.
import { readApproverEntries } from '../credentials/approver-entries';
import type { PrismaStoreContext } from './prisma-store-context';
import type { EventStore, Person } from './types';

/** The owner id a user's conversations are kept under: their own, or the guest's they signed up from. */
export function userOwnerId(user: { id: string; ownerId?: string | null }): string {
  return user.ownerId ?? `user:${user.id}`;
}

/** `role:<role>` entries' roles, and whether `members` (every signed-up user) is named. */
function namedPeople(approvers: readonly string[]): { roles: string[]; members: boolean } {
  const entries = readApproverEntries(approvers);
  return { roles: entries.flatMap((entry) => (entry.kind === 'role' ? [entry.role] : [])), members: entries.some((entry) => entry.kind === 'members') };
}

const SIGNED_UP = { OR: [{ isAnonymous: false }, { isAnonymous: null }] };

export function prismaPeople(context: PrismaStoreContext): Pick<EventStore, 'personByAddress' | 'addressesOfApprovers'> {
  return {
    personByAddress: (address) =>
      context.withClient(async (db): Promise<Person | null> => {
        const user = await db.user.findFirst({
          where: { email: address.trim().toLowerCase(), ...SIGNED_UP },
          select: { id: true, email: true, ownerId: true, roles: { select: { role: true } } },
        });
        return user && { ownerId: userOwnerId(user), email: user.email, roles: user.roles.map((entry) => entry.role) };
      }),
    addressesOfApprovers: (approvers) => {
      const { roles, members } = namedPeople(approvers);
      if (!members && roles.length === 0) return Promise.resolve([]);
      return context.withClient(async (db) => {
        const users = await db.user.findMany({
          where: { ...SIGNED_UP, ...(members ? {} : { roles: { some: { role: { in: roles } } } }) },
          select: { email: true },
          orderBy: { email: 'asc' },
          take: 100,
        });
        return users.map((user) => user.email);
      });
    },
  };
}
