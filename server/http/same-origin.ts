// The one rule for a browser's requests that change something (docs/security.md, "Browsers"): a
// POST or DELETE that carries no API key in a header must come from this site. A browser sends
// the identity cookie — and, in open dev mode, needs none — with any site's request, and a POST
// without a body or with a form's content type needs no CORS preflight; so, body or no body,
// `Sec-Fetch-Site: cross-site` or an `Origin` of another site (or `null`) is 403 `cross_origin`.
// A key in a header is no browser's: another site's page cannot set that header without the
// preflight this server never answers. resolveCaller (identity/owner.ts) applies the rule to every
// endpoint that asks who is calling, readJsonBody (body.ts) to every body read, so sign-in and
// sign-out, which ask no caller, are covered too.
import { presentedApiKey } from '../identity/api-keys';
import { HttpError } from './errors';

/** Methods that change nothing; the app's reads may come from anywhere a browser can reach. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function checkSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method) || presentedApiKey(request)) return;
  if (request.headers.get('sec-fetch-site')?.trim().toLowerCase() === 'cross-site') {
    throw new HttpError('cross_origin', 'Requests from another site are not accepted without an API key.');
  }
  const origin = request.headers.get('origin');
  if (!origin) return;
  const host = requestHost(request);
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = undefined; // "null" (a sandboxed frame, a file:) is no origin of ours
  }
  if (originHost !== host) throw new HttpError('cross_origin', `Requests from ${origin.slice(0, 200)} are not accepted without an API key.`);
}

/** The host this request addressed: the one a browser's page of this site has as its origin. */
function requestHost(request: Request): string {
  return request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? new URL(request.url).host;
}

/**
 * The origins of this site as the request addresses it, for Better Auth's own origin check
 * (server/auth/better-auth.ts): the same rule as above — an origin is ours when its host is the
 * one the request was sent to — so the two checks never disagree.
 */
export function thisSiteOrigins(request: Request | undefined): string[] {
  if (!request) return [];
  const host = requestHost(request);
  return [`http://${host}`, `https://${host}`];
}
