// The API keys that own sessions (STACKBONE_API_KEYS, comma-separated); none = open dev mode.
// A key's owner id is a hash of it, so a key never sits in the database or in a cookie.
import { createHash } from 'node:crypto';
import { configuredApiKeys } from '../open-dev-mode';

export { configuredApiKeys };

/** The owner id of an API key: `key:` and 24 hex digits of its SHA-256. */
export function keyOwner(key: string): string {
  return `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

/** Whether an owner id is that of a key configured now (a removed key's cookies stop working). */
export function isConfiguredKeyOwner(ownerId: string): boolean {
  return ownerId.startsWith('key:') && configuredApiKeys().some((key) => keyOwner(key) === ownerId);
}

/** The key a request presents in a header (`Authorization: Bearer` or `x-api-key`), checked or not. */
export function presentedApiKey(request: Request): string | undefined {
  const bearer = request.headers
    .get('authorization')
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  return bearer || request.headers.get('x-api-key')?.trim() || undefined;
}
