// POST /api/auth/session {key}: this browser acts as that API key from now on; DELETE: forget this
// browser's identity (docs/security.md, "Modes"). The identity cookie is set through the jar the
// route hands in (Next's `cookies()`): server/ stays framework-free.
import { errorResponse } from '../../http/errors';
import { IDENTITY_COOKIE, identityCookieOptions } from '../../identity/browser-identity';
import { checkSignOut, keyIdentityCookie } from '../../identity/key-sign-in';

/** The cookies of the response, as a route handler holds them (Next's `cookies()`). */
export interface CookieJar {
  set(name: string, value: string, options: ReturnType<typeof identityCookieOptions>): unknown;
  delete(name: string): unknown;
}

export async function handleSignIn(request: Request, cookies: () => Promise<CookieJar>): Promise<Response> {
  try {
    const identity = await keyIdentityCookie(request);
    (await cookies()).set(IDENTITY_COOKIE, identity, identityCookieOptions(identity, new URL(request.url).protocol === 'https:'));
    return Response.json({ signedIn: true });
  } catch (error) {
    return errorResponse(error, 'Sign-in');
  }
}

export async function handleSignOut(request: Request, cookies: () => Promise<CookieJar>): Promise<Response> {
  try {
    await checkSignOut(request);
    (await cookies()).delete(IDENTITY_COOKIE);
    return Response.json({ signedIn: false });
  } catch (error) {
    return errorResponse(error, 'Sign-out');
  }
}
