// Who is asking (docs/wires.md, "Auth"). Sessions belong to an owner: an API key from STACKBONE_API_KEYS
// (Bearer or x-api-key), else — in open dev mode, with no keys configured — the one local
// owner shared by every request without credentials.
import { createHash, timingSafeEqual } from 'node:crypto';
import { configuredApiKeys } from './api-keys';
import { browserIdentity } from './browser-identity';

export { configuredApiKeys } from './api-keys';
import { HttpError } from './errors';

export const LOCAL_OWNER = 'local';

// On globalThis: Next bundles routes and pages separately, and the warning is once per process.
const warned = globalThis as typeof globalThis & { __stackboneWarnedOpenMode?: boolean };


export function isOpenDevMode(): boolean {
  return configuredApiKeys().length === 0;
}

export function presentedApiKey(request: Request): string | undefined {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  return bearer || request.headers.get('x-api-key')?.trim() || undefined;
}

function keyOwner(key: string): string {
  return `key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}

function sameKey(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/**
 * The owner id of a request. Throws 401 when keys are configured and none matches — unless
 * the surface is one a browser uses (`browser: true`) and the request carries a valid signed
 * identity cookie (browser-identity.ts).
 */
export function resolveOwner(request: Request, options: { browser?: boolean } = {}): string {
  const keys = configuredApiKeys();
  const presented = presentedApiKey(request);
  if (keys.length === 0) {
    if (!warned.__stackboneWarnedOpenMode) {
      warned.__stackboneWarnedOpenMode = true;
      console.warn('[stackbone] STACKBONE_API_KEYS is not set: open dev mode, every request is accepted and shares the local owner.');
    }
    return LOCAL_OWNER;
  }
  if (!presented) {
    const browser = options.browser ? browserIdentity(request) : undefined;
    if (browser) return `browser:${browser}`;
    throw new HttpError(401, 'unauthorized', 'An API key is required: send Authorization: Bearer <key> or x-api-key.');
  }
  if (!keys.some((key) => sameKey(key, presented))) throw new HttpError(401, 'unauthorized', 'The API key is not valid.');
  return keyOwner(presented);
}
