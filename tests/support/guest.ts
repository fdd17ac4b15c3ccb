// A public chat's guest, as a browser becomes one (STACKBONE_WEB_ACCESS=open): its first page load
// makes it Better Auth's anonymous user (proxy.ts), whose session cookie the answer sets; its
// conversations are kept under its owner id, `browser:<id>` (server/auth/guest-account.ts).

export interface Guest {
  /** The Cookie header its browser sends from then on. */
  cookie: string;
  ownerId: string;
}

/** A response's Set-Cookie lines as one Cookie header. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}

/** One page load of `/` with these headers (an X-Forwarded-For address, a cookie): the answer, and the guest it made. */
export async function firstPage(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; guest?: Guest; response: Response }> {
  const response = await fetch(`${url}/`, { headers });
  const text = await response.text();
  const cookie = cookiesOf(response);
  if (!cookie.includes('better-auth.session_token=')) return { status: response.status, text, response };
  const session = await fetch(`${url}/api/auth/get-session`, { headers: { cookie } });
  const { user } = (await session.json()) as { user: { ownerId: string; isAnonymous: boolean } };
  if (!user.isAnonymous) throw new Error(`The first page signed in a member, not a guest: ${JSON.stringify(user)}`);
  return { status: response.status, text, response, guest: { cookie, ownerId: user.ownerId } };
}

/** A new guest: one page load, which must make one. */
export async function newGuest(url: string, headers: Record<string, string> = {}): Promise<Guest> {
  const page = await firstPage(url, headers);
  if (!page.guest) throw new Error(`The first page made no guest: ${page.status} ${page.text.slice(0, 300)}`);
  return page.guest;
}
