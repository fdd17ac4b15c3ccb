import { cookies } from 'next/headers';
import { IDENTITY_COOKIE, identityCookieOptions } from '@/server/identity/browser-identity';
import { errorResponse } from '@/server/http/errors';
import { checkSignOut, keyIdentityCookie } from '@/server/identity/key-sign-in';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// POST {key}: this browser acts as that API key from now on (docs/security.md, "Modes").
export async function POST(request: Request) {
  try {
    const identity = await keyIdentityCookie(request);
    (await cookies()).set(IDENTITY_COOKIE, identity, identityCookieOptions(identity, new URL(request.url).protocol === 'https:'));
    return Response.json({ signedIn: true });
  } catch (error) {
    return errorResponse(error, 'Sign-in');
  }
}

// DELETE: forget this browser's identity.
export async function DELETE(request: Request) {
  try {
    await checkSignOut(request);
    (await cookies()).delete(IDENTITY_COOKIE);
    return Response.json({ signedIn: false });
  } catch (error) {
    return errorResponse(error, 'Sign-out');
  }
}
