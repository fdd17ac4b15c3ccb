// GET /api/cron/recover: the server's own work as an endpoint, for hosts without a long-lived
// process (Vercel). A cron job calls it so that expired approvals take their default action and
// runs orphaned by a crash are carried on, even when no client touches their session. Only a
// cron caller may (identity/cron-caller.ts).
import { findAgent } from '../../agents';
import { refuseUnlessCron } from '../../identity/cron-caller';
import { sweep } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

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
  return jsonResponse({ sessions: result.sessions, started: result.started, ms: Date.now() - startedAt });
}
