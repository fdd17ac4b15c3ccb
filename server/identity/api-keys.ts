// The API keys that own sessions (STACKBONE_API_KEYS, comma-separated, each bare or labelled
// `name:groups=key`); none = open dev mode. A key's owner id is a hash of it, so a key never sits
// in the database. Reading the variable is server/credentials/open-dev-mode.ts's, below the runtime.
import { configuredApiKeys, keyOwner } from '../credentials/open-dev-mode';

export { configuredApiKeys, keyOwner };

/** The key a request presents in a header (`Authorization: Bearer` or `x-api-key`), checked or not. */
export function presentedApiKey(request: Request): string | undefined {
  const bearer = request.headers
    .get('authorization')
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  return bearer || request.headers.get('x-api-key')?.trim() || undefined;
}
