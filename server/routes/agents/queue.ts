// POST /api/agents/{name}/queue and POST /api/v1/sessions/{key}/queue: the message queue of a
// thread (docs/turn-control.md, "Queue"). Body: {threadId?, op, …} — `add` {text, id?}, `edit`
// {id, text}, `move` {id, index}, `remove` {id}, `sendNow` {id}; the session key in the path
// stands for threadId. Answers the queue as it stands after the operation.
import { z } from 'zod';
import { scopedSessionId, SESSION_ID, SESSION_ID_RULE, userMessage, describeIssue } from '../../runtime';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { resolveOwner } from '../../identity/owner';
import { changeQueue, queueItems, type QueueOperation } from '../../runtime';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

// What an id may hold, and how long a text may be, is the runtime's one rule (docs/security.md, "What a request may carry").
const id = z.string();
const text = z.string().trim().min(1);
const thread = { threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE).optional() };
const body = z.discriminatedUnion('op', [
  /** `id` makes a resend harmless: the same id is the same queued message. */
  z.object({ ...thread, op: z.literal('add'), text, id: id.optional() }).strict(),
  z.object({ ...thread, op: z.literal('edit'), id, text }).strict(),
  z.object({ ...thread, op: z.literal('move'), id, index: z.number().int().min(0) }).strict(),
  z.object({ ...thread, op: z.literal('remove'), id }).strict(),
  z.object({ ...thread, op: z.literal('sendNow'), id }).strict(),
]);

/** A session key names a chat-wire session; its queued turns run as that wire's would (untrusted: user messages only). */
const SESSION_KEY_SOURCE = 'openai';

export async function handleQueue(request: Request, target: { agent?: string; sessionKey?: string }, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    if (target.agent && !findAgent(target.agent)) throw new HttpError('not_found', `No agent named "${target.agent}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: Boolean(target.agent) });
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError(
        'invalid_request',
        `Invalid queue body: ${describeIssue(parsed.error, '(body)')} ({threadId, op: add|edit|move|remove|sendNow, id, text?, index?}).`,
      );
    const threadId = target.sessionKey ?? parsed.data.threadId;
    if (!threadId) throw new HttpError('invalid_request', 'threadId: required (the thread whose queue to change).');
    const queue = await changeQueue(
      getStore(),
      findAgent,
      { sessionId: scopedSessionId(ownerId, threadId), ownerId, agent: target.agent, source: target.agent ? 'agui' : SESSION_KEY_SOURCE, keepAlive },
      operationOf(parsed.data),
    );
    return jsonResponse({ threadId, queue: queueItems(queue) });
  } catch (error) {
    return errorResponse(error, 'queue request');
  }
}

function operationOf(data: z.infer<typeof body>): QueueOperation {
  switch (data.op) {
    case 'add':
      return { op: 'add', message: userMessage(data.text, { id: data.id }) };
    case 'edit':
      return { op: 'edit', messageId: data.id, content: data.text };
    case 'move':
      return { op: 'move', messageId: data.id, index: data.index };
    case 'remove':
      return { op: 'remove', messageId: data.id };
    case 'sendNow':
      return { op: 'sendNow', messageId: data.id };
  }
}
