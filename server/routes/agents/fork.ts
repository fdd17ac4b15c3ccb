// POST /api/agents/{name}/fork and POST /api/v1/sessions/{key}/fork: a new thread from a message
// of an existing one (docs/time-travel.md). Body: {threadId?, atMessageId, message?, regenerate?,
// newThreadId?, runId?}; the session key in the path stands for threadId. No `message`: a fork
// up to and with the message. `message`: an edit-and-resend, the new text in place of the user
// message. `regenerate: true`: the assistant reply asked again. Answers {threadId, parent, runId?}
// with 201; the new turn, if any, runs on: follow it on the new thread's session stream.
import { z } from 'zod';
import { describeIssue, forkThread, SESSION_ID, SESSION_ID_RULE, userMessage } from '../../runtime';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveOwner } from '../../identity/owner';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

const threadKey = z.string().regex(SESSION_ID, SESSION_ID_RULE);
const body = z
  .object({
    threadId: threadKey.optional(),
    // What an id may hold, and how long a text may be, is the runtime's one rule (docs/security.md).
    atMessageId: z.string(),
    /** The new text of the user message `atMessageId`: an edit-and-resend. */
    message: z.string().trim().min(1).optional(),
    /** The id the resent message takes; a fresh one when absent. */
    messageId: z.string().optional(),
    regenerate: z.literal(true).optional(),
    newThreadId: threadKey.optional(),
    runId: threadKey.optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((data) => !(data.message && data.regenerate), { message: 'message and regenerate: one or the other', path: ['regenerate'] });

export async function handleFork(request: Request, target: { agent?: string; sessionKey?: string }, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    if (target.agent && !findAgent(target.agent)) throw new HttpError('not_found', `No agent named "${target.agent}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: Boolean(target.agent) });
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError(
        'invalid_request',
        `Invalid fork body: ${describeIssue(parsed.error, '(body)')} ({threadId, atMessageId, message? | regenerate?, newThreadId?, runId?}).`,
      );
    const data = parsed.data;
    const threadId = target.sessionKey ?? data.threadId;
    if (!threadId) throw new HttpError('invalid_request', 'threadId: required (the thread to fork).');
    const forked = await forkThread({
      findAgent,
      agent: target.agent,
      store: getStore(),
      ownerId,
      threadId,
      atMessageId: data.atMessageId,
      mode: data.message ? 'edit' : data.regenerate ? 'regenerate' : 'fork',
      message: data.message ? userMessage(data.message, { id: data.messageId }) : undefined,
      newThreadId: data.newThreadId,
      runId: data.runId,
      model: data.model,
      source: target.agent ? 'agui' : 'openai',
    });
    if (forked.run) keepAlive(forked.run.done);
    return jsonResponse({ threadId: forked.threadId, parent: { threadId, atMessageId: data.atMessageId }, runId: forked.run?.runId ?? null }, { status: 201 });
  } catch (error) {
    return errorResponse(error, 'fork request');
  }
}
