// Gives every browser a signed identity cookie when API keys are configured (docs/wires.md,
// "Auth"), so the web app works in keyed mode and each browser owns its own sessions. In open
// dev mode there is nothing to do: every request is the local owner. A cookie signed with a
// previous secret (STACKBONE_SECRET_PREVIOUS, during a rotation) keeps its id and is signed anew.
import { NextResponse, type NextRequest } from 'next/server';
import { IDENTITY_COOKIE, IDENTITY_MAX_AGE_SECONDS, identitiesEnabled, issueIdentity, signIdentity, verifiedIdentity } from './server/http/browser-identity';

export function proxy(request: NextRequest) {
  if (!identitiesEnabled()) return NextResponse.next();
  const current = verifiedIdentity(safeCookie(request));
  if (current && !current.stale) return NextResponse.next();
  const identity = current ? signIdentity(current.id) : issueIdentity();
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

/** The cookie as sent; one Next cannot read (a malformed escape) is no cookie. */
function safeCookie(request: NextRequest): string | undefined {
  try {
    return request.cookies.get(IDENTITY_COOKIE)?.value;
  } catch {
    return undefined;
  }
}

export const config = {
  // Pages only: API clients authenticate with keys, and assets need no identity.
  matcher: ['/((?!api/|_next/|favicon.ico|icon.svg).*)'],
};
