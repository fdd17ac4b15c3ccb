// POST /api/agents/{name}/steer and POST /api/v1/sessions/{key}/steer: guidance for the turn in
// progress (docs/turn-control.md, "Steer"). Body: {threadId?, runId?, text, id?}; the session
// key in the path stands for threadId. The run takes it in at its next step boundary.
import { z } from 'zod';
import { scopedSessionId, SESSION_ID, SESSION_ID_RULE, userMessage, requestSteer, describeIssue } from '../../runtime';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveOwner } from '../../identity/owner';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

const body = z
  .object({
    threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE).optional(),
    // What an id may hold, and how long a text may be, is the runtime's one rule (docs/security.md, "What a request may carry").
    runId: z.string().optional(),
    text: z.string().trim().min(1),
    /** Makes a resend harmless: the same id is the same guidance. */
    id: z.string().optional(),
  })
  .strict();

export async function handleSteer(request: Request, target: { agent?: string; sessionKey?: string }): Promise<Response> {
  try {
    if (target.agent && !findAgent(target.agent)) throw new HttpError('not_found', `No agent named "${target.agent}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: Boolean(target.agent) });
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError('invalid_request', `Invalid steer body: ${describeIssue(parsed.error, '(body)')} ({threadId, runId?, text, id?}).`);
    const threadId = target.sessionKey ?? parsed.data.threadId;
    if (!threadId) throw new HttpError('invalid_request', 'threadId: required (the thread whose run to steer).');
    const steer = await requestSteer(getStore(), findAgent, {
      sessionId: scopedSessionId(ownerId, threadId),
      ownerId,
      agent: target.agent,
      runId: parsed.data.runId,
      message: userMessage(parsed.data.text, { id: parsed.data.id }),
    });
    return jsonResponse({ threadId, runId: steer.runId, messageId: steer.message.id }, { status: 202 });
  } catch (error) {
    return errorResponse(error, 'steer request');
  }
}
