// Better Auth's browser client (docs/users-and-roles.md): sign up, sign in, sign out against
// /api/auth on this site. Its anonymous and API-key calls go through plain fetch where used.
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient();
