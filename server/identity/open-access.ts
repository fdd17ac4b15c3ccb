// How far open dev mode reaches (docs/security.md, "Modes"). Without STACKBONE_API_KEYS every
// request is the one local owner: it reads every session and decides every approval. That is
// meant for one person's own machine, but `next dev` and `next start` listen on every interface,
// and a DNS-rebinding page (evil.example resolving to 127.0.0.1) passes the same-origin rule,
// since its Origin and Host name the same site. So in open dev mode the server answers only
// requests addressed to a loopback host, and a production server does not start at all.
// STACKBONE_ALLOW_OPEN_ACCESS=1 lifts both: no keys, on purpose, for whoever reaches the server.
import { configuredApiKeys } from './api-keys';
import { HttpError } from '../http/errors';
import { setting } from '../config';

/** STACKBONE_ALLOW_OPEN_ACCESS=1: serve without keys whoever reaches this server. */
export function openAccessAllowed(): boolean {
  return setting('STACKBONE_ALLOW_OPEN_ACCESS');
}

/** Whether a Host header names this machine: `localhost`, `*.localhost`, 127.0.0.0/8 or `[::1]`, with any port. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  // Only what a host and port are made of: no userinfo (`evil@localhost`), path or spaces.
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The refusal of a request that open dev mode does not serve: one addressed to a host other than
 * loopback (the Host header, as the browser sent it). Undefined when keys are configured, when
 * STACKBONE_ALLOW_OPEN_ACCESS=1, or for a loopback host.
 */
export function openDevModeRefusal(request: Request): HttpError | undefined {
  if (configuredApiKeys().length > 0 || openAccessAllowed()) return undefined;
  const host = request.headers.get('host') ?? new URL(request.url).host;
  if (isLoopbackHost(host)) return undefined;
  return new HttpError(
    'open_dev_mode_remote',
    `This server is in open dev mode (no STACKBONE_API_KEYS): every request acts as its one local owner, so it answers only requests to localhost, and this one is addressed to "${host.slice(0, 100)}". ` +
      'To serve it on a network, set STACKBONE_API_KEYS and STACKBONE_SECRET, or set STACKBONE_ALLOW_OPEN_ACCESS=1 to serve whoever reaches it without keys (docs/security.md).',
  );
}

/** Throws openDevModeRefusal's 403 (resolveCaller, and the few routes that ask no caller). */
export function checkOpenDevHost(request: Request): void {
  const refusal = openDevModeRefusal(request);
  if (refusal) throw refusal;
}

/** Throws the start-up error of a production server without keys that has not opted in (server/boot). */
export function checkOpenAccess(): void {
  if (process.env.NODE_ENV === 'production' && configuredApiKeys().length === 0 && !openAccessAllowed()) {
    throw new Error(
      'STACKBONE_API_KEYS is not set and this is a production server: in open dev mode anyone who reaches it reads every session and decides every approval. ' +
        'Set STACKBONE_API_KEYS and STACKBONE_SECRET (`openssl rand -hex 32`), or set STACKBONE_ALLOW_OPEN_ACCESS=1 to serve without keys on purpose (docs/security.md).',
    );
  }
}
