// Who may call the cron endpoints (/api/cron/…, docs/deploy.md): Vercel Cron sends
// `Authorization: Bearer $CRON_SECRET`; an API key from STACKBONE_API_KEYS is accepted too.
import { HttpError, jsonError } from '../http/errors';
import { configuredApiKeys, presentedApiKey } from './api-keys';
import { openDevModeRefusal } from './open-access';
import { sameSecret } from './same-secret';
import { setting } from '../config';

/** The cron caller's key, when keys are configured: CRON_SECRET or an API key. */
export function refuseUnlessCron(request: Request): Response | null {
  const presented = presentedApiKey(request);
  const accepted = [setting('CRON_SECRET'), ...configuredApiKeys()].filter((key): key is string => Boolean(key));
  if (accepted.length > 0 && !(presented && accepted.some((key) => sameSecret(key, presented)))) {
    return jsonError(new HttpError('unauthorized', 'Send Authorization: Bearer <CRON_SECRET or an API key>.'));
  }
  // Nothing to present (open dev mode, no CRON_SECRET): only from this machine, unless opted in.
  const remote = accepted.length === 0 ? openDevModeRefusal(request) : undefined;
  return remote ? jsonError(remote) : null;
}
