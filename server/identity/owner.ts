// Who is asking (docs/security.md, "What each credential can do"). Sessions belong to an owner:
// a user signed in to the app (Better Auth's cookie, or one of their API keys in a header;
// docs/users-and-roles.md), a guest (the same, not signed up yet: every visitor of a public chat,
// keyed mode with STACKBONE_WEB_ACCESS=open), a service key from STACKBONE_API_KEYS (Bearer or
// x-api-key: scripts and headless deployments, never a browser), or — in open dev mode, with no
// keys configured — the one local owner shared by every request.
import { configuredApiKeys, keyOwner, presentedApiKey } from './api-keys';
import { HttpError } from '../http/errors';
import { checkWrongKeyAttempts, countWrongKey } from '../http/limits';
import { LOCAL_OWNER, isOpenDevMode } from '../credentials/open-dev-mode';
import { checkOpenDevHost } from './open-access';
import { checkSameOrigin } from '../http/same-origin';
import { sameSecret } from './same-secret';
import { keyUser, looksLikeUserKey, sessionUser, type UserIdentity } from '../auth/user-identity';
import { openToEveryone } from '../auth/who-may-join';
import { browsersWithoutKey } from './web-access';

// The local owner and the mode are configuration, read by the runtime too (server/credentials/open-dev-mode.ts).
export { LOCAL_OWNER, isOpenDevMode };

/**
 * What proved who the caller is: a service key (in a header) may approve what
 * `approvers: 'key-holders'` keeps; a user (`user`: signed up, `guest`: not yet) by their
 * session cookie or one of their keys.
 */
type Credential = 'local' | 'key' | 'user' | 'guest';

export interface Caller {
  ownerId: string;
  credential: Credential;
  /** How a user came: in a header (one of their keys: an API client, the CLI) or in the app's session cookie (Studio, the chat). A service key comes in a header. */
  via?: 'header' | 'cookie';
  /** A user's roles (docs/users-and-roles.md), which `approvers: ['role:…']` name. */
  roles?: readonly string[];
  /** A user's address, for people to read. */
  email?: string;
}

function userCaller(user: UserIdentity, via: 'header' | 'cookie'): Caller {
  return { ownerId: user.ownerId, credential: user.guest ? 'guest' : 'user', via, roles: user.roles, email: user.email };
}

// On globalThis: Next bundles routes and pages separately, and the warning is once per process.
const warned = globalThis as typeof globalThis & { __stackboneWarnedOpenMode?: boolean };

/** The configured key a presented one matches, or undefined. */
function matchingApiKey(presented: string): string | undefined {
  return configuredApiKeys().find((key) => sameSecret(key, presented));
}

export interface ResolveOptions {
  /** A surface of the chat: a member's session is accepted, and a guest's where everyone is let in. */
  browser?: boolean;
  /** An operator's surface (Studio, /api/hitl): a member's session is accepted, a guest's never. */
  member?: boolean;
}

/**
 * The caller of a request, first match wins: a user's key in a header; on the app's surfaces a
 * member's session; a service key in a header; a guest's session on the chat's surfaces where
 * everyone is let in; open dev mode's local owner. Throws 401 when keys are configured and none of these holds.
 * A POST or DELETE without a key in a header must come from this site (http/same-origin.ts): the
 * cookie, or open dev mode, is what a browser carries to any site's request. Open dev mode
 * answers only requests addressed to localhost (open-access.ts).
 */
export async function resolveCaller(request: Request, options: ResolveOptions = {}): Promise<Caller> {
  checkSameOrigin(request);
  if (isOpenDevMode()) checkOpenDevHost(request);
  const presented = presentedApiKey(request);
  // A user's key acts as its user, in every mode (docs/users-and-roles.md, "API keys").
  if (presented && looksLikeUserKey(presented)) {
    if (!isOpenDevMode()) checkWrongKeyAttempts(request);
    const user = await keyUser(presented);
    if (user) return userCaller(user, 'header');
    if (!isOpenDevMode()) {
      void countWrongKey(request);
      throw new HttpError('unauthorized', 'The API key is not valid (revoked, expired or never made).');
    }
  }
  // A member signed in on the app's surfaces.
  const user = options.browser || options.member ? await sessionUser(request) : undefined;
  if (user && !user.guest) return userCaller(user, 'cookie');
  if (presented && !isOpenDevMode()) {
    // Wrong keys count against the address (docs/security.md, "What a request may carry").
    checkWrongKeyAttempts(request);
    const key = matchingApiKey(presented);
    if (!key) {
      void countWrongKey(request);
      throw new HttpError('unauthorized', 'The API key is not valid.');
    }
    return { ownerId: keyOwner(key), credential: 'key', via: 'header' };
  }
  // A guest only on the chat's surfaces, where everyone is let in.
  if (user && options.browser && openToEveryone()) return userCaller(user, 'cookie');
  if (isOpenDevMode()) {
    if (!warned.__stackboneWarnedOpenMode) {
      warned.__stackboneWarnedOpenMode = true;
      console.warn('[stackbone] STACKBONE_API_KEYS is not set: open dev mode, every request is accepted and shares the local owner.');
    }
    return { ownerId: LOCAL_OWNER, credential: 'local' };
  }
  // A public chat's browser that has no guest yet (a tab from before guests were Better Auth's, or an API client).
  if (options.browser && browsersWithoutKey())
    throw new HttpError('unauthorized', 'This browser is no guest yet: load a page of the app first (it makes one), or send an API key.');
  throw new HttpError(
    'unauthorized',
    options.browser || options.member
      ? 'Sign in first (/sign-in), or send an API key: Authorization: Bearer <key> or x-api-key.'
      : 'An API key is required: send Authorization: Bearer <key> or x-api-key.',
  );
}

/** The owner id of a request (resolveCaller's, for surfaces that need no more). */
export async function resolveOwner(request: Request, options: ResolveOptions = {}): Promise<string> {
  return (await resolveCaller(request, options)).ownerId;
}
