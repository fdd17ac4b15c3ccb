// GET /api/cron/attachments: the sweep of uploads no message named (docs/models.md, "Attachments")
// for hosts without a long-lived process (Vercel), whose cron job calls it; `npm start` runs it in
// its own loop (server/boot). Only a cron caller may (identity/cron-caller.ts).
import { sweepUnclaimedAttachments } from '../../attachments';
import { refuseUnlessCron } from '../../identity/cron-caller';
import { jsonResponse } from '../../http/small-answers';

/** One sweep; answers what it removed once it is done. */
export async function handleAttachmentSweep(request: Request): Promise<Response> {
  const refused = refuseUnlessCron(request);
  if (refused) return refused;
  const startedAt = Date.now();
  const result = await sweepUnclaimedAttachments();
  return jsonResponse({ ...result, ms: Date.now() - startedAt });
}
