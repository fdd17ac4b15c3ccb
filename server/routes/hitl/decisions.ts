// GET /api/hitl/decisions: the decision export (docs/replay.md, "Exporting decisions"), JSONL, one
// line per decided interrupt the caller may see — the inbox's scope (inbox.ts): the store's
// listing for the owner (and, for a key holder, what is kept for key holders), then mayDecide.
import { findAgent } from '../../agents';
import { errorResponse } from '../../http/errors';
import { resolveCaller } from '../../identity/owner';
import { callerIdentity } from '../../identity/decision-actor';
import { decisionExport, mayDecide, seesOthersApprovals } from '../../runtime';
import { getStore } from '../../store';

/** The most decisions one export holds, newest ones kept. */
const EXPORT_LIMIT = 1000;

export async function exportDecisions(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { member: true });
    const store = getStore();
    const rows = await store.listPendingInterrupts(caller.ownerId, {
      limit: EXPORT_LIMIT,
      keyHolder: seesOthersApprovals(caller.credential),
      status: 'decided',
    });
    const actor = { source: 'hitl' as const, ...callerIdentity(caller) };
    const visible = rows.filter((row) => mayDecide(row.record, row.ownerId, actor));
    const lines = await decisionExport(store, visible, (agent) => findAgent(agent)?.initialState ?? {});
    return new Response(lines.map((line) => `${JSON.stringify(line)}\n`).join(''), {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': 'attachment; filename="decisions.jsonl"',
        'cache-control': 'no-store',
      },
    });
  } catch (error) {
    return errorResponse(error, 'Decision export');
  }
}
