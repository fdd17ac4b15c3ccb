// Who may make an account or become a guest (docs/users-and-roles.md, "Who may sign up"). Where
// the web is open (STACKBONE_WEB_ACCESS=open) or in open dev mode, anyone: a guest on their first
// visit, an account when they sign up. On a keyed server with web access `key`, the app is for its
// operators: only an address the configuration names (STACKBONE_ADMIN_EMAILS, STACKBONE_ROLES) may
// sign up, and nobody is a guest. New guests count against their address as new browser
// identities do (server/http/new-identities.ts), so per-owner limits stay limits.
import { APIError } from 'better-auth/api';
import { allowNewIdentity } from '../http/new-identities';
import { isOpenDevMode } from '../credentials/open-dev-mode';
import { browsersWithoutKey } from '../identity/web-access';
import { seededRolesOf } from './seeded-roles';

/** Whether anyone who reaches the app may use it: open dev mode, or a keyed server with open web access. */
export function openToEveryone(): boolean {
  return isOpenDevMode() || browsersWithoutKey();
}

/** Refuses a user Better Auth is about to create (its `user.create.before` hook) that may not join. */
export async function checkNewUser(user: { email: string; isAnonymous?: boolean | null }, request: Pick<Request, 'headers'> | undefined): Promise<void> {
  if (user.isAnonymous) {
    if (!openToEveryone()) throw new APIError('FORBIDDEN', { message: 'Guests are not let in here: sign in (STACKBONE_WEB_ACCESS is `key`).' });
    if (request && !isOpenDevMode()) {
      const allowance = await allowNewIdentity(request);
      if (!allowance.allowed)
        throw new APIError(
          'TOO_MANY_REQUESTS',
          { message: `Too many new visitors from this address: try again in ${Math.ceil(allowance.retryAfter / 60)} min.`, code: 'too_many_identities' },
          { 'Retry-After': String(allowance.retryAfter) },
        );
    }
    return;
  }
  if (openToEveryone() || seededRolesOf(user.email).length > 0) return;
  throw new APIError('FORBIDDEN', {
    message: 'Sign-up is closed on this server: ask an operator to add your address to STACKBONE_ADMIN_EMAILS or STACKBONE_ROLES.',
  });
}
