// STACKBONE_SECRET (docs/security.md, "Modes"): what a keyed server signs with — approval links
// (link-token.ts), without BETTER_AUTH_SECRET the sign-in sessions (server/auth/better-auth.ts),
// and with STACKBONE_WAKER=vercel-queue the wakes it queues (server/wake/wake-message.ts).
// It is required in keyed mode and for queued wakes (the server does not start without it: server/identity/start-checks.ts):
// deriving it from the API keys would void every link when a key rotates, and let anyone who holds
// the key list forge them.
import { configuredApiKeys } from './open-dev-mode';
import { setting } from '../config';

/** How short STACKBONE_SECRET may be: 32 bytes (`openssl rand -hex 32` makes 64). */
const MIN_SECRET_BYTES = 32;

/** Throws the start-up error of a keyed server without STACKBONE_SECRET, or with a short one. */
export function checkSigningSecret(): void {
  const queuedWakes = setting('STACKBONE_WAKER') === 'vercel-queue';
  if (configuredApiKeys().length === 0 && !queuedWakes) return;
  const secret = setting('STACKBONE_SECRET');
  if (!secret) {
    const needs = queuedWakes ? 'STACKBONE_WAKER=vercel-queue' : 'STACKBONE_API_KEYS';
    throw new Error(
      `${needs} is set but STACKBONE_SECRET is not: set STACKBONE_SECRET to a long random string (e.g. \`openssl rand -hex 32\`); it signs approval links, the wakes the server queues and, without BETTER_AUTH_SECRET, the sign-in sessions (docs/security.md).`,
    );
  }
  const bytes = Buffer.byteLength(secret);
  if (bytes < MIN_SECRET_BYTES) {
    throw new Error(
      `STACKBONE_SECRET is ${bytes} bytes; it must be at least ${MIN_SECRET_BYTES}, or anyone who guesses it forges approval links: make one with \`openssl rand -hex 32\` (to keep links working, move the old one to STACKBONE_SECRET_PREVIOUS; docs/security.md).`,
    );
  }
}
