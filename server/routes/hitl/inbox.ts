// GET /api/hitl: the inbox of the out-of-band decision API (docs/hitl.md, "Out of band"): a page of
// the decisions that wait on the caller — its own first, then those kept for key holders — in the
// shape the shared contract declares (server/contract/), with the cursor of the next page.
import { errorResponse } from '../../http/errors';
import { resolveCaller } from '../../identity/owner';
import { callerIdentity } from '../../identity/decision-actor';
import { inboxPage, seesOthersApprovals, sessionKeyOf, shownVote, voteReaderOf, votesCast } from '../../runtime';
import { getStore } from '../../store';
import type { InboxItem, InboxList } from '../../contract';
import { encodeInboxCursor } from './inbox-cursor';
import { parseInboxQuery } from './inbox-query';
import { jsonResponse } from '../../http/small-answers';

export async function listPending(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request, { member: true });
    const query = parseInboxQuery(request.url, seesOthersApprovals(caller.credential));
    const store = getStore();
    const actor = { source: 'hitl' as const, ...callerIdentity(caller) };
    // Expired ones are taking their default action, and one the caller may not decide is not theirs to see.
    const { rows: open, next } = await inboxPage(store, actor, query);
    // A call that needs a quorum shows the votes cast so far (docs/approvals.md, "Quorum and separation of duties").
    const votes = await Promise.all(open.map((row) => (row.record.quorum ? votesCast(store, row.sessionId, row.id) : undefined)));
    return jsonResponse({
      interrupts: open.map((row, i): InboxItem => ({
        id: row.id,
        // The session as its owner names it (a key holder deciding a browser's call sees that browser's key).
        sessionId: sessionKeyOf(row.sessionId),
        // False for a browser's call kept for key holders: its session is that browser's, not the caller's to open.
        ownSession: row.ownerId === caller.ownerId,
        agent: row.agent,
        reason: row.record.reason,
        toolCallId: row.record.toolCallId,
        toolName: row.record.toolName,
        args: row.record.input,
        message: row.record.message,
        ...(row.record.description !== undefined ? { description: row.record.description } : {}),
        ...(row.record.context ? { context: row.record.context } : {}),
        responseSchema: row.record.responseSchema,
        allowedDecisions: row.record.allowedDecisions,
        ...(row.record.url !== undefined ? { url: row.record.url } : {}),
        expiresAt: row.record.expiresAt ?? null,
        createdAt: row.createdAt.toISOString(),
        ...(row.record.quorum ? { quorum: row.record.quorum, votes: (votes[i] ?? []).map((vote) => shownVote(vote, voteReaderOf(caller.ownerId))) } : {}),
        ...(row.record.requesterMayApprove === false ? { requesterMayApprove: false as const } : {}),
      })),
      nextCursor: next ? encodeInboxCursor(next) : null,
    } satisfies InboxList);
  } catch (error) {
    return errorResponse(error, 'HITL request');
  }
}
