// GET /api/cron/timers: due timers fire even when no client touches their session, for hosts
// without a long-lived process (Vercel), whose cron job calls it. Only a cron caller may
// (identity/cron-caller.ts).
import { findAgent } from '../../agents';
import { refuseUnlessCron } from '../../identity/cron-caller';
import { fireDueTimers } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

/** Fires the due timers (docs/turn-control.md, "Timers"); answers once their runs have started. */
export async function handleTimerTick(request: Request, keepAlive?: (promise: Promise<unknown>) => void): Promise<Response> {
  const refused = refuseUnlessCron(request);
  if (refused) return refused;
  const startedAt = Date.now();
  const result = await fireDueTimers(getStore(), findAgent);
  keepAlive?.(result.done);
  return jsonResponse({ fired: result.fired, waiting: result.waiting, ms: Date.now() - startedAt });
}
