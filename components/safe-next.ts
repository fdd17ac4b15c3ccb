// Where a browser goes once it has signed in (`/sign-in?next=…`, docs/security.md, "Browsers"):
// a path of this site, or home. Checked as a browser reads a URL — it drops tabs and newlines
// and takes `\` for `/`, so `/\t/evil.example` is `//evil.example`, another site — by resolving
// it against this site's origin and keeping it only when the origin stays the same. Pure, so
// that the sign-in page (server) and the sign-in form (browser) apply the one rule.

/** A stand-in origin for the server, which checks only that `next` is a path of whatever site serves it. */
const ANY_ORIGIN = 'http://sign-in.invalid';

/** `next` as a path of this site (its pathname, query and fragment), or '/' for anything else. */
export function safeNext(next: unknown, origin: string = ANY_ORIGIN): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A resolved path that begins `//` (from `/a/..//evil.example`) would name a host if used as it is.
  return path.startsWith('//') ? '/' : path;
}
