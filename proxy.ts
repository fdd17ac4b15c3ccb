// Gives every browser a signed identity cookie when API keys are configured (docs/wires.md, "Auth"), so the
// web app works in keyed mode and each browser owns its own sessions. In open dev mode there
// is nothing to do: every request is the local owner.
import { NextResponse, type NextRequest } from 'next/server';
import { IDENTITY_COOKIE, IDENTITY_MAX_AGE_SECONDS, identitiesEnabled, issueIdentity, verifyIdentity } from './server/http/browser-identity';

export function proxy(request: NextRequest) {
  if (!identitiesEnabled() || verifyIdentity(request.cookies.get(IDENTITY_COOKIE)?.value)) return NextResponse.next();
  const identity = issueIdentity();
  // The page rendering this very request sees the new identity too.
  request.cookies.set(IDENTITY_COOKIE, identity);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(IDENTITY_COOKIE, identity, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.nextUrl.protocol === 'https:',
    path: '/',
    maxAge: IDENTITY_MAX_AGE_SECONDS,
  });
  return response;
}

export const config = {
  // Pages only: API clients authenticate with keys, and assets need no identity.
  matcher: ['/((?!api/|_next/|favicon.ico|icon.svg).*)'],
};
