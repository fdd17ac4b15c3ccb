// POST /api/agents/{name}/undo: undo an effect a fork left behind (docs/time-travel.md, "Undoing a
// dropped effect"). Body: {threadId, toolCallId, runId?}: the fork, and the original's call after
// the fork point to undo. Starts a turn whose first call is the tool's declared undo, gated like
// any call; answers {threadId, runId} with 202 — follow the thread's session stream for the rest.
import { z } from 'zod';
import { describeIssue, scopedSessionId, SESSION_ID, SESSION_ID_RULE, undoDroppedEffect } from '../../runtime';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../identity/owner';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

const body = z
  .object({
    threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE),
    toolCallId: z.string().min(1).max(200),
    runId: z.string().regex(SESSION_ID, SESSION_ID_RULE).optional(),
  })
  .strict();

export async function handleUndo(request: Request, target: { agent: string }, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    if (!findAgent(target.agent)) throw new HttpError('not_found', `No agent named "${target.agent}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: true });
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError('invalid_request', `Invalid undo body: ${describeIssue(parsed.error, '(body)')} ({threadId, toolCallId, runId?}).`);
    const { threadId, toolCallId, runId } = parsed.data;
    const run = await undoDroppedEffect({
      store: getStore(),
      findAgent,
      sessionId: scopedSessionId(ownerId, threadId),
      ownerId,
      agent: target.agent,
      toolCallId,
      runId,
    });
    keepAlive(run.done);
    return jsonResponse({ threadId, runId: run.runId }, { status: 202 });
  } catch (error) {
    return errorResponse(error, 'undo request');
  }
}
