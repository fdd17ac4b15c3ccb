// POST /api/hitl/{id}/{action}: a decision of the out-of-band API (docs/hitl.md, "Out of band").
// It only translates HTTP to runtime calls; the rules are the runtime's decision pipeline (docs/internals/architecture.md).
import { z } from 'zod';
import { findAgent } from '../../agents';
import { readJsonBody } from '../../http/body';
import { errorResponse, HttpError } from '../../http/errors';
import { requestActor } from '../../identity/decision-actor';
import { resolveCaller } from '../../identity/owner';
import { decideInterrupt, describeIssue, sessionKeyOf, shownDecision, shownVote, voteReaderOf } from '../../runtime';
import type { DecisionRequest } from '../../runtime';
import { getStore } from '../../store';
import { HITL_ACTIONS, type HitlAction } from '../../contract';
import { jsonResponse } from '../../http/small-answers';

const bodies = {
  // grant: "approve, and allow this from now on", read by the runtime (docs/approvals.md, "Scoped grants").
  approve: z.object({ editedArgs: z.unknown().optional(), payload: z.unknown().optional(), grant: z.unknown().optional() }).strict(),
  // editedArgs is read so the runtime refuses it with the same code as over AG-UI (a rejection never takes edits).
  reject: z.object({ reason: z.string().max(2000).optional(), payload: z.unknown().optional(), editedArgs: z.unknown().optional() }).strict(),
  cancel: z.object({}).strict(),
};

/**
 * Applies a decision. Returns the response and, when the decision completed its batch, the
 * continuation's completion for the route to keep alive after responding (Next's after()).
 */
export async function decide(request: Request, interruptId: string, action: string): Promise<{ response: Response; continuation?: Promise<void> }> {
  try {
    if (!(HITL_ACTIONS as readonly string[]).includes(action))
      throw new HttpError('not_found', `Unknown action "${action}": use approve, reject or cancel.`, { what: 'endpoint' });
    const caller = await resolveCaller(request, { member: true });
    const ownerId = caller.ownerId;
    const raw = await readJsonBody(request, undefined, { optional: true });
    const parsed = bodies[action as HitlAction].safeParse(raw);
    if (!parsed.success) {
      throw new HttpError('invalid_request', `Invalid body for ${action}: ${describeIssue(parsed.error, '(body)')}`);
    }
    const body = parsed.data as { editedArgs?: unknown; payload?: unknown; reason?: string; grant?: unknown };
    const decision: Omit<DecisionRequest, 'interruptId'> =
      action === 'approve'
        ? { status: 'approved', editedArgs: body.editedArgs, payload: body.payload, ...(body.grant !== undefined ? { grant: body.grant } : {}) }
        : action === 'reject'
          ? { status: 'denied', reason: body.reason, payload: body.payload, editedArgs: body.editedArgs }
          : { status: 'cancelled' };
    const by = requestActor(request, caller, 'hitl');
    const result = await decideInterrupt({ store: getStore(), findAgent, interruptId, request: decision, by });
    const reader = voteReaderOf(ownerId);
    return {
      response: jsonResponse({
        interrupt: {
          id: result.interrupt.id,
          sessionId: sessionKeyOf(result.sessionId),
          toolName: result.interrupt.toolName,
          toolCallId: result.interrupt.toolCallId,
        },
        // A vote short of the quorum decides nothing yet (docs/approvals.md, "Quorum and separation of duties").
        decision: result.decision ? shownDecision(result.decision, reader) : null,
        ...(result.vote ? { vote: shownVote(result.vote, reader), quorum: result.interrupt.quorum } : {}),
        ...(result.grant ? { grant: result.grant } : {}),
        continuation: result.continuation ? { runId: result.continuation.runId } : null,
      }),
      continuation: result.continuation?.done,
    };
  } catch (error) {
    return { response: errorResponse(error, 'HITL request') };
  }
}
