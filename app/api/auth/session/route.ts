import { cookies } from 'next/headers';
import { handleSignIn, handleSignOut } from '@/server/routes/auth/session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// POST {key}: this browser acts as that API key from now on (docs/security.md, "Modes").
export function POST(request: Request) {
  return handleSignIn(request, cookies);
}

// DELETE: forget this browser's identity.
export function DELETE(request: Request) {
  return handleSignOut(request, cookies);
}
