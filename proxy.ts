// Keeps the browser's signed identity cookie in keyed mode (docs/security.md, "Modes"); a browser
// signed in to an account (docs/users-and-roles.md) passes on its session cookie. With
// STACKBONE_WEB_ACCESS=open every browser gets a random identity on its first page load and owns
// the sessions it starts; with `key` (the default) a page without a key's cookie sends the
// browser to /sign-in, where an API key is exchanged for one. In open dev mode every request is
// the local owner, so pages are served only to requests addressed to this machine. A cookie
// signed with a previous secret (STACKBONE_SECRET_PREVIOUS, during a rotation), or one signed
// before signatures carried their purpose (docs/security.md, "Signed tokens"), keeps its id and
// issue time and is signed anew; an expired one is none.
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import {
  honouredIdentity,
  IDENTITY_COOKIE,
  identitiesEnabled,
  identityCookieOptions,
  issueIdentity,
  signIdentity,
  verifiedIdentity,
  type VerifiedIdentity,
} from './server/identity/browser-identity';
import { openDevModeRefusal } from './server/identity/open-access';
import { errorStatus } from './server/error-codes';
import { allowNewIdentity } from './server/http/new-identities';
import { readLinkToken } from './server/credentials/link-token';
import { browsersWithoutKey } from './server/identity/web-access';

const SIGN_IN_PATH = '/sign-in';
/** Pages for someone not signed in yet (docs/users-and-roles.md): signing in, making an account, resetting a password. */
const ACCOUNT_PAGES = new Set([SIGN_IN_PATH, '/sign-up', '/reset-password']);
/** A notification's one-click link (docs/approvals.md): its token is the credential, so no sign-in stands before it. */
const LINK_PAGES = '/approve/';

export async function proxy(request: NextRequest) {
  // Open dev mode serves its pages only to this machine (the APIs refuse in resolveCaller).
  const remote = openDevModeRefusal(request);
  if (remote)
    return new NextResponse(`403 ${remote.code}: ${remote.message}\n`, { status: remote.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  if (request.nextUrl.pathname.startsWith(LINK_PAGES)) return linkPage(request);
  if (!identitiesEnabled()) return NextResponse.next();
  // Someone signed in to an account, or a guest of Better Auth's: the pages check the session.
  if (getSessionCookie(request)) return NextResponse.next();
  const current = usableIdentity(request);
  if (current && !current.stale) return NextResponse.next();
  if (!current && !browsersWithoutKey()) {
    if (ACCOUNT_PAGES.has(request.nextUrl.pathname)) return NextResponse.next();
    const signIn = new URL(SIGN_IN_PATH, request.url);
    signIn.searchParams.set('next', request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.redirect(signIn);
  }
  // A new identity is one page load: an address gets so many an hour, or every per-identity limit
  // is a limit per page load (docs/security.md, "The open web").
  if (!current) {
    const allowance = await allowNewIdentity(request);
    if (!allowance.allowed) {
      const message = `Too many new visitors from this address: try again in ${Math.ceil(allowance.retryAfter / 60)} min.`;
      return new NextResponse(`429 too_many_identities: ${message}\n`, {
        status: errorStatus('too_many_identities'),
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(allowance.retryAfter) },
      });
    }
  }
  // Signed anew (a rotation, or a cookie signed without a purpose label): the same id, its life not extended.
  const identity = current ? signIdentity(current.id, current.issuedAt) : issueIdentity();
  // The page rendering this very request sees the new identity too.
  request.cookies.set(IDENTITY_COOKIE, identity);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(IDENTITY_COOKIE, identity, identityCookieOptions(identity, request.nextUrl.protocol === 'https:'));
  return response;
}

/**
 * A link's page is rendered whatever its token (it says why a link decides nothing), but a
 * token that is malformed, signed with another key or expired is answered with that refusal's
 * status, so a client reading only the status knows too. Whether the link still fits its
 * interrupt needs the store: the page and the POST tell.
 */
function linkPage(request: NextRequest): NextResponse {
  let token: string;
  try {
    token = decodeURIComponent(request.nextUrl.pathname.slice(LINK_PAGES.length));
  } catch {
    token = '';
  }
  const { problem } = readLinkToken(token);
  if (!problem) return NextResponse.next();
  return NextResponse.next({ status: errorStatus(problem === 'expired' ? 'link_expired' : 'link_invalid') });
}

/**
 * The request's identity, if the server still honours it: a key's while that key is configured,
 * a browser's own only while web access is open.
 */
function usableIdentity(request: NextRequest): VerifiedIdentity | undefined {
  const identity = verifiedIdentity(safeCookie(request));
  return identity && honouredIdentity(identity.id) ? identity : undefined;
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
