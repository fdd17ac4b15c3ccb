// GET /api/cron/outbox: the outbox delivers notices (docs/approvals.md, "Decision webhooks") even
// on hosts without a long-lived process (Vercel), whose cron job calls it. Only a cron caller may
// (identity/cron-caller.ts).
import { findAgent } from '../../agents';
import { refuseUnlessCron } from '../../identity/cron-caller';
import { deliverOutbox } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

/** One pass of the outbox; answers with what it did once its attempts have ended. */
export async function handleOutboxTick(request: Request): Promise<Response> {
  const refused = refuseUnlessCron(request);
  if (refused) return refused;
  const startedAt = Date.now();
  const tick = await deliverOutbox(getStore(), findAgent);
  return jsonResponse({ ...tick, ms: Date.now() - startedAt });
}
