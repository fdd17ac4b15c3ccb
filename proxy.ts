// Who a page's browser is (docs/security.md, "Modes"; docs/users-and-roles.md). A browser signed in
// to an account, or a guest, passes on Better Auth's session cookie. With STACKBONE_WEB_ACCESS=open
// every other browser is made a guest on its first page load (Better Auth's anonymous sign-in) and
// owns the conversations it starts; with `key` (the default) a page without a session sends the
// browser to /sign-in. In open dev mode every request is the local owner, so pages are served only
// to requests addressed to this machine.
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import { isOpenDevMode } from './server/credentials/open-dev-mode';
import { openDevModeRefusal } from './server/identity/open-access';
import { errorStatus } from './server/error-codes';
import { readLinkToken } from './server/credentials/link-token';
import { browsersWithoutKey } from './server/identity/web-access';
import { sendAsIsWhenSmall } from './server/http/small-answers';

const SIGN_IN_PATH = '/sign-in';
/** Pages for someone not signed in yet (docs/users-and-roles.md): signing in, making an account, resetting a password. */
const ACCOUNT_PAGES = new Set([SIGN_IN_PATH, '/sign-up', '/reset-password']);
/** A notification's one-click link (docs/approvals.md): its token is the credential, so no sign-in stands before it. */
const LINK_PAGES = '/approve/';

export async function proxy(request: NextRequest) {
  // Open dev mode serves its pages only to this machine (the APIs refuse in resolveCaller).
  const remote = openDevModeRefusal(request);
  if (remote) return refusal(remote.status, remote.code, remote.message);
  if (request.nextUrl.pathname.startsWith(LINK_PAGES)) return linkPage(request);
  if (isOpenDevMode()) return NextResponse.next();
  // Someone signed in to an account, or a guest: the pages check the session.
  if (getSessionCookie(request)) return NextResponse.next();
  if (browsersWithoutKey()) return welcomeGuest(request);
  if (ACCOUNT_PAGES.has(request.nextUrl.pathname)) return NextResponse.next();
  const signIn = new URL(SIGN_IN_PATH, request.url);
  signIn.searchParams.set('next', request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

/**
 * A new guest for this browser (server/auth/guest-sign-in.ts): its session cookie is set, and the
 * page rendering this very request sees it too. A browser that chatted under its own identity
 * cookie before guests were Better Auth's keeps its id in the guest (server/auth/guest-account.ts). A guest is one page load, so an address gets so many an hour
 * (docs/security.md, "The open web"): past that, 429 with when to come back.
 */
async function welcomeGuest(request: NextRequest): Promise<NextResponse> {
  const { signInGuest } = await import('./server/auth/guest-sign-in');
  const made = await signInGuest(request.headers);
  if ('refused' in made) {
    const { status, code, message, headers } = made.refused;
    return refusal(status, code, message, headers);
  }
  for (const cookie of made.cookies) {
    const [pair = ''] = cookie.split(';');
    const equals = pair.indexOf('=');
    // As the browser will send it back: Next encodes a request cookie's value again.
    request.cookies.set(pair.slice(0, equals), decodeURIComponent(pair.slice(equals + 1)));
  }
  const response = NextResponse.next({ request: { headers: request.headers } });
  for (const cookie of made.cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

function plainText(headers?: HeadersInit): Headers {
  const plain = new Headers(headers);
  plain.set('Content-Type', 'text/plain; charset=utf-8');
  return plain;
}

/** A refusal in plain text, sent uncompressed (server/http/small-answers.ts): a flood's page loads past their limit get many. */
function refusal(status: number, code: string, message: string, headers?: HeadersInit): NextResponse {
  const text = `${status} ${code}: ${message}\n`;
  return new NextResponse(text, { status, headers: sendAsIsWhenSmall(plainText(headers), text) });
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

export const config = {
  // Pages only: API clients authenticate with keys, and assets need no identity.
  // The receipt keys (/.well-known/jwks.json) are public: a verifier holds no identity (docs/approvals.md, "Signed receipts").
  matcher: ['/((?!api/|_next/|\\.well-known/|favicon.ico|icon.svg).*)'],
};
