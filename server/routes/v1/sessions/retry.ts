// POST /api/v1/sessions/{key}/retry `{retryId}`: the HTTP form of Retry for clients of the chat
// wires, which have no field for it (docs/turn-control.md, "Retry"). Runs the session's failed
// turn again; the continuation is in the session's history (GET /api/v1/sessions/{key}).
import { z } from 'zod';
import { findAgent } from '../../../agents';
import { readJsonBody } from '../../../http/body';
import { errorResponse, HttpError } from '../../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../../http/keep-alive';
import { resolveOwner } from '../../../identity/owner';
import { startRun, describeIssue, ownedSession, sessionNotFound, scopedSessionId } from '../../../runtime';
import { getStore } from '../../../store';
import { jsonResponse } from '../../../http/small-answers';

// What a retryId may hold is the runtime's one rule for client ids (docs/security.md, "What a request may carry").
const body = z.object({ retryId: z.string() }).strict();

export async function handleSessionRetry(request: Request, key: string, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    const ownerId = await resolveOwner(request);
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError('invalid_request', `Invalid retry body: ${describeIssue(parsed.error, '(body)')} ({retryId}: new for each retry).`);
    const store = getStore();
    const sessionId = scopedSessionId(ownerId, key);
    const session = await ownedSession(store, { sessionId, ownerId });
    const agent = findAgent(session.agent);
    if (!agent) throw sessionNotFound({ sessionId });
    const run = await startRun({ agent, store, sessionId, ownerId, source: 'server', messages: [], retry: { retryId: parsed.data.retryId } });
    keepAlive(run.done);
    return jsonResponse({ threadId: key, runId: run.runId, retryId: parsed.data.retryId }, { status: 202 });
  } catch (error) {
    return errorResponse(error, 'retry request');
  }
}
