// GET /api/studio/approval-metrics: how the caller's approvals are going (docs/studio.md, "Approval
// metrics"), for Studio's metrics page. Scoped as the inbox and the decision export are: the
// caller's own sessions', and for a key holder what is kept for key holders, of which what the
// caller may decide.
import { findAgent } from '../../agents';
import { errorResponse } from '../../http/errors';
import { callerIdentity } from '../../identity/decision-actor';
import { resolveCaller } from '../../identity/owner';
import { approvalMetrics } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

export async function handleApprovalMetrics(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { member: true });
    const actor = { source: 'studio' as const, ...callerIdentity(caller) };
    const metrics = await approvalMetrics(getStore(), actor, (agent) => findAgent(agent)?.initialState ?? {});
    return jsonResponse(metrics, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error, 'approval metrics request');
  }
}
