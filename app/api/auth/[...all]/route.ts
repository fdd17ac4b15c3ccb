// Better Auth's endpoints (docs/users-and-roles.md): sign-up/email, sign-in/email, sign-out,
// get-session, ok, sign-in/anonymous, api-key/*, callback/<provider>.
import { authHandler } from '@/server/routes/auth/better-auth-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST } = authHandler;
