// POST /api/webhooks/{agent}: an example webhook — another system tells an agent something on
// a session (docs/turn-control.md, "Server append"). Authenticated with an API key like every
// programmatic surface; the session is the key's (created for it when new). Body:
// `{threadId, text, id?}`: `text` becomes a user message (`id` makes a redelivery harmless).
// The turn runs on the server; any open chat on the thread shows it live.
import { z } from 'zod';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../identity/owner';
import { session, userMessage, describeIssue, SESSION_ID, SESSION_ID_RULE } from '../../runtime';
import { jsonResponse } from '../../http/small-answers';

const body = z
  .object({
    threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE),
    // How long a text may be, and what an id may hold, is the runtime's one rule (docs/security.md).
    text: z.string().trim().min(1),
    id: z.string().optional(),
  })
  .strict();

export async function handleWebhook(request: Request, agentName: string, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    const agent = findAgent(agentName);
    if (!agent) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request);
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new HttpError('invalid_request', `Invalid webhook body: ${describeIssue(parsed.error, '(body)')}`);
    const { threadId, text, id } = parsed.data;
    const run = await session(agent, threadId, { ownerId }).append(userMessage(text, { id }));
    if (!run) return jsonResponse({ threadId, appended: false, runId: null }, { status: 200 });
    keepAlive(run.done);
    // Queued behind a turn in progress or a pending decision: runId is the run it will become.
    return jsonResponse({ threadId, appended: true, runId: run.runId, ...(run.queued ? { queued: true } : {}) }, { status: 202 });
  } catch (error) {
    return errorResponse(error, 'webhook');
  }
}
