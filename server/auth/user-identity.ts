// Who a request's user is (docs/users-and-roles.md): by Better Auth's session cookie (a member
// or a guest), or by one of a user's API keys in a header. A key and the same user's cookie are
// one person: both resolve to the user's owner id.
import { getSessionCookie } from 'better-auth/cookies';
import { withAppDatabase } from '../store/app-database';
import { accountsAvailable, getAuth, USER_KEY_PREFIX } from './better-auth';
import { userOwnerId } from '../store/prisma-people';

export interface UserIdentity {
  userId: string;
  /** What its conversations are kept under: `user:<id>`, or the guest's it signed up from. */
  ownerId: string;
  email: string;
  name: string;
  /** A guest: an anonymous user, until they sign up. */
  guest: boolean;
  roles: string[];
}

async function identityOf(userId: string): Promise<UserIdentity | undefined> {
  const user = await withAppDatabase((db) =>
    db.user.findUnique({
      where: { id: userId },
      select: { id: true, email: true, name: true, ownerId: true, isAnonymous: true, roles: { select: { role: true } } },
    }),
  );
  if (!user) return undefined;
  return {
    userId: user.id,
    ownerId: userOwnerId(user),
    email: user.email,
    name: user.name,
    guest: user.isAnonymous === true,
    roles: user.roles.map((entry) => entry.role),
  };
}

/**
 * The user signed in by the request's session cookie; no cookie reads no database. A guest holds
 * no roles, so the session's own user is all there is to know: a guest's request (every request
 * of a public chat) reads the session alone; a member's reads their roles too.
 */
export async function sessionUser(request: Request): Promise<UserIdentity | undefined> {
  if (!getSessionCookie(request) || !accountsAvailable()) return undefined;
  const found = await getAuth().api.getSession({ headers: request.headers });
  if (!found) return undefined;
  const { user } = found as { user: { id: string; email: string; name: string; ownerId?: string | null; isAnonymous?: boolean | null } };
  if (user.isAnonymous) return { userId: user.id, ownerId: userOwnerId(user), email: user.email, name: user.name, guest: true, roles: [] };
  return identityOf(user.id);
}

/** Whether a key in a header could be a user's (it carries their keys' prefix). */
export function looksLikeUserKey(key: string): boolean {
  return key.startsWith(USER_KEY_PREFIX);
}

/** The user whose API key this is, while the key is enabled and unexpired. */
export async function keyUser(key: string): Promise<UserIdentity | undefined> {
  if (!accountsAvailable()) return undefined;
  const result = await getAuth().api.verifyApiKey({ body: { key } });
  return result.valid && result.key ? identityOf(result.key.referenceId) : undefined;
}
