// The server's own work as endpoints, for hosts without a long-lived process (Vercel): a cron
// job calls them so that expired approvals take their default action, runs orphaned by a crash
// are carried on, and due timers fire, even when no client touches their session. Vercel Cron
// sends `Authorization: Bearer $CRON_SECRET`; an API key from STACKBONE_API_KEYS is accepted too.
import { createHash, timingSafeEqual } from 'node:crypto';
import { findAgent } from '../agents';
import { sweep , fireDueTimers } from '../runtime';
import { getStore } from '../store';
import { configuredApiKeys } from './api-keys';
import { HttpError, jsonError } from './errors';
import { openDevModeRefusal } from './open-access';
import { presentedApiKey } from './owner';

function same(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * Responds once the recovered runs are started, not finished (one may run for minutes).
 * `keepAlive` receives the promise of their end, for a host that would otherwise freeze the
 * function after the response (Next's `after`, Vercel's `waitUntil`).
 */
export async function handleRecoverySweep(request: Request, keepAlive?: (promise: Promise<unknown>) => void): Promise<Response> {
  const refused = refuseUnlessCron(request);
  if (refused) return refused;
  const startedAt = Date.now();
  const result = await sweep(getStore(), findAgent);
  keepAlive?.(result.done);
  return Response.json({ sessions: result.sessions, started: result.started, ms: Date.now() - startedAt });
}

/** Fires the due timers (docs/turn-control.md, "Timers"); answers once their runs have started. */
export async function handleTimerTick(request: Request, keepAlive?: (promise: Promise<unknown>) => void): Promise<Response> {
  const refused = refuseUnlessCron(request);
  if (refused) return refused;
  const startedAt = Date.now();
  const result = await fireDueTimers(getStore(), findAgent);
  keepAlive?.(result.done);
  return Response.json({ fired: result.fired, waiting: result.waiting, ms: Date.now() - startedAt });
}

/** The cron caller's key, when keys are configured: CRON_SECRET or an API key. */
function refuseUnlessCron(request: Request): Response | null {
  const presented = presentedApiKey(request);
  const accepted = [process.env.CRON_SECRET?.trim(), ...configuredApiKeys()].filter((key): key is string => Boolean(key));
  if (accepted.length > 0 && !(presented && accepted.some((key) => same(key, presented)))) {
    return jsonError(new HttpError('unauthorized', 'Send Authorization: Bearer <CRON_SECRET or an API key>.'));
  }
  // Nothing to present (open dev mode, no CRON_SECRET): only from this machine, unless opted in.
  const remote = accepted.length === 0 ? openDevModeRefusal(request) : undefined;
  return remote ? jsonError(remote) : null;
}
