// A visitor's first page on a public chat makes them a guest (docs/users-and-roles.md, "Guests"):
// Better Auth's anonymous sign-in, asked by proxy.ts for the page's own request, so the page that
// answers it already knows its guest. Its own file: the proxy loads it only to make a guest.
import { APIError } from 'better-auth/api';
import { getAuth } from './better-auth';

export type GuestSignIn =
  /** The session cookies to set (`Set-Cookie` values). */
  | { cookies: string[] }
  /** Why no guest was made (who-may-join.ts): its status, code, message and headers (Retry-After). */
  | { refused: { status: number; code: string; message: string; headers: HeadersInit } };

/** Signs the request's browser in as a new guest; the request's headers say whose it is (its address). */
export async function signInGuest(headers: Headers): Promise<GuestSignIn> {
  try {
    const made = await getAuth().api.signInAnonymous({ headers, returnHeaders: true });
    return { cookies: made.headers.getSetCookie() };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const code = typeof error.body?.code === 'string' ? error.body.code : String(error.status);
    return { refused: { status: error.statusCode, code, message: error.message, headers: error.headers } };
  }
}
