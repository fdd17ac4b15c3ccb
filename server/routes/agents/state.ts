// POST /api/agents/{name}/state: the editable shared state of a thread, written between turns
// (docs/internals/architecture.md, "Shared state"). Body: {threadId, state}; answers {threadId, state}.
import { z } from 'zod';
import { scopedSessionId, SESSION_ID, SESSION_ID_RULE, writeClientState, describeIssue } from '../../runtime';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveOwner } from '../../identity/owner';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

const body = z.object({ threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE), state: z.record(z.string(), z.unknown()) }).strict();

export async function handleStateWrite(request: Request, agentName: string): Promise<Response> {
  try {
    const agent = findAgent(agentName);
    if (!agent) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: true });
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new HttpError('invalid_request', `Invalid state body: ${describeIssue(parsed.error, '(body)')} ({threadId, state}).`);
    const state = await writeClientState(getStore(), agent, { sessionId: scopedSessionId(ownerId, parsed.data.threadId), ownerId, state: parsed.data.state });
    return jsonResponse({ threadId: parsed.data.threadId, state });
  } catch (error) {
    return errorResponse(error, 'state write');
  }
}
