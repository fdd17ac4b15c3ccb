// POST /api/agents/{name}/decide: a decision from the chat that an AG-UI resume cannot say —
// declining to answer a question (its resume payload is the answer itself, docs/hitl.md), and a
// vote on a call that needs several approvers (a resume would have to decide it; docs/approvals.md,
// "Quorum and separation of duties"), and one decision of a batch sent on its own (experimental-a2's
// approve / deny / respond, docs/hitl.md, "The a2 names"). Body: {threadId, interruptId, action:
// 'approve' | 'reject', reason?, payload?, editedArgs? (approve only)}. The same decision pipeline as /api/hitl
// (runtime/turn-control/decide-out-of-band.ts), for the browser that owns the thread.
import { z } from 'zod';
import { scopedSessionId, SESSION_ID, SESSION_ID_RULE, decideInterrupt, describeIssue, shownDecision, shownVote, voteReaderOf } from '../../runtime';
import { callerIdentity } from '../../identity/decision-actor';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { noKeepAlive, type KeepAlive } from '../../http/keep-alive';
import { resolveCaller } from '../../identity/owner';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

const body = z
  .object({
    threadId: z.string().regex(SESSION_ID, SESSION_ID_RULE),
    interruptId: z.string().min(1),
    action: z.enum(['approve', 'reject']),
    reason: z.string().trim().max(2000).optional(),
    payload: z.unknown().optional(),
    editedArgs: z.unknown().optional(),
  })
  .strict();

export async function handleChatDecision(request: Request, agentName: string, keepAlive: KeepAlive = noKeepAlive): Promise<Response> {
  try {
    if (!findAgent(agentName)) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
    const caller = await resolveCaller(request, { browser: true });
    const { ownerId } = caller;
    const parsed = body.safeParse(await readJsonBody(request));
    if (!parsed.success)
      throw new HttpError(
        'invalid_request',
        `Invalid decision body: ${describeIssue(parsed.error, '(body)')} ({threadId, interruptId, action: "approve" | "reject", reason?, payload?, editedArgs?}).`,
      );
    const result = await decideInterrupt({
      store: getStore(),
      findAgent,
      // The browser decides on its own thread only.
      inSession: scopedSessionId(ownerId, parsed.data.threadId),
      interruptId: parsed.data.interruptId,
      request:
        parsed.data.action === 'approve'
          ? {
              status: 'approved',
              ...(parsed.data.payload !== undefined ? { payload: parsed.data.payload } : {}),
              ...(parsed.data.editedArgs !== undefined ? { editedArgs: parsed.data.editedArgs } : {}),
            }
          : {
              status: 'denied',
              reason: parsed.data.reason || undefined,
              ...(parsed.data.payload !== undefined ? { payload: parsed.data.payload } : {}),
              // A rejection with edits is refused by the one decision rule (validate-decision.ts), as every wire's is.
              ...(parsed.data.editedArgs !== undefined ? { editedArgs: parsed.data.editedArgs } : {}),
            },
      by: { source: 'agui', ...callerIdentity(caller) },
    });
    if (result.continuation) keepAlive(result.continuation.done);
    return jsonResponse({
      interruptId: result.interrupt.id,
      // Who voted, only for a key holder's eyes (docs/approvals.md, "Votes").
      decision: result.decision ? shownDecision(result.decision, voteReaderOf(ownerId)) : null,
      ...(result.vote ? { vote: shownVote(result.vote, voteReaderOf(ownerId)) } : {}),
      continuation: result.continuation ? { runId: result.continuation.runId } : null,
    });
  } catch (error) {
    return errorResponse(error, 'chat decision');
  }
}
