// POST /api/agents/{name}/stop and POST /api/v1/sessions/{key}/stop: a persisted stop
// (docs/hitl.md, "Stopping a run"). Body: {threadId?, runId?, frontier?}; the session key
// in the path stands for threadId.
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import type { DecisionActor } from '../../store/pauses';
import { callerIdentity, requestActor } from '../../identity/decision-actor';
import { resolveCaller } from '../../identity/owner';
import { parseCursor, requestStop, isSessionId, scopedSessionId, SESSION_ID_RULE } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

export async function handleStop(request: Request, target: { agent?: string; sessionKey?: string }): Promise<Response> {
  try {
    if (target.agent && !findAgent(target.agent)) throw new HttpError('not_found', `No agent named "${target.agent}".`, { what: 'agent' });
    const caller = await resolveCaller(request, { browser: Boolean(target.agent) });
    const ownerId = caller.ownerId;
    const raw = await readJsonBody(request, undefined, { optional: true });
    const body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : null) as { threadId?: unknown; runId?: unknown; frontier?: unknown } | null;
    if (!body) throw new HttpError('invalid_request', 'The body must be a JSON object: {threadId, runId?, frontier?}.');
    const threadId = target.sessionKey ?? body.threadId;
    if (typeof threadId !== 'string' || !threadId) throw new HttpError('invalid_request', 'threadId: required (the thread whose run to stop).');
    if (!isSessionId(threadId)) throw new HttpError('invalid_thread_id', `threadId: ${SESSION_ID_RULE}.`, { field: 'threadId' });
    for (const key of ['runId', 'frontier'] as const) {
      if (body[key] !== undefined && body[key] !== null && typeof body[key] !== 'string') throw new HttpError('invalid_request', `${key}: must be a string.`);
    }
    const frontier = (body.frontier as string | undefined) ?? null;
    if (frontier !== null && !parseCursor(frontier)) throw new HttpError('invalid_cursor', `frontier: "${frontier}" is not a cursor this server sent.`);
    const by: DecisionActor = target.agent ? { source: 'agui', ...callerIdentity(caller) } : requestActor(request, caller, 'server');
    const result = await requestStop(getStore(), findAgent, {
      sessionId: scopedSessionId(ownerId, threadId),
      ownerId,
      agent: target.agent,
      runId: body.runId as string | undefined,
      frontier,
      by,
    });
    return jsonResponse({
      threadId,
      runId: result.runId,
      stopped: result.stopped,
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.record ? { frontier: result.record.frontier, requestedAt: result.record.requestedAt } : {}),
    });
  } catch (error) {
    return errorResponse(error, 'stop request');
  }
}
