// Signing in to the app with an API key (docs/security.md, "Modes"): the key is checked once and
// exchanged for the signed identity cookie, which then acts as that key in this browser — its
// sessions, Studio, and the approvals kept for key holders. The key itself is never stored.
import { z } from 'zod';
import { keyOwner } from './api-keys';
import { readJsonBody } from '../http/body';
import { signIdentity } from './browser-identity';
import { HttpError } from '../http/errors';
import { checkSignInAttempts, countFailedSignIn } from '../http/limits';
import { isOpenDevMode, matchingApiKey } from './owner';
import { describeIssue } from '../runtime';

const SignIn = z.object({ key: z.string().min(1).max(1000) }).strict();

/**
 * The cookie value for the key in the request's body; 401 for a key the server does not hold,
 * and 429 once this client has tried too many wrong ones (http/limits.ts) — the right key too, then.
 */
export async function keyIdentityCookie(request: Request): Promise<string> {
  const body = SignIn.safeParse(await readJsonBody(request));
  if (!body.success) throw new HttpError('invalid_request', `Invalid sign-in: ${describeIssue(body.error, '(body)')}`);
  if (isOpenDevMode()) throw new HttpError('open_dev_mode', 'This server is in open dev mode (no STACKBONE_API_KEYS): nobody needs a key.');
  await checkSignInAttempts(request);
  const key = matchingApiKey(body.data.key.trim());
  if (!key) {
    await countFailedSignIn(request);
    throw new HttpError('unauthorized', 'The API key is not valid.');
  }
  return signIdentity(keyOwner(key));
}

/** Signing out is a same-origin request too: another site's page cannot sign a browser out. */
export async function checkSignOut(request: Request): Promise<void> {
  await readJsonBody(request, undefined, { optional: true });
}
