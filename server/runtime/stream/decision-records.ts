// The decisions of a thread as a client shows them (docs/hitl.md, "Decisions in the chat"): one
// record per decided interrupt, from the view's interrupts, for the hydration JSON, the thread
// page's first paint and the `interrupt-decided` part alike.
import type { DecisionRecord } from '../../contract';
import type { InterruptState, SessionView } from '../session';

/** The record of a decided interrupt; undefined while it waits. */
export function decisionRecordOf(state: InterruptState): DecisionRecord | undefined {
  const { record, decision, decidedAt } = state;
  if (!decision || decidedAt === undefined) return undefined;
  return {
    interruptId: record.id,
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    interruptReason: record.reason,
    status: decision.status,
    argsAsked: record.input,
    ...(decision.editedArgs !== undefined ? { editedArgs: decision.editedArgs } : {}),
    ...(decision.reason ? { reason: decision.reason } : {}),
    ...(decision.expired ? { expired: true } : {}),
    // Not the owner's id nor the client's own label: who decided, as the chat says it.
    by: { source: decision.by.source, ...(decision.by.credential ? { credential: decision.by.credential } : {}) },
    // A quorum's every vote, the deciding one last: where each was cast, as the decision's own `by`.
    ...(decision.votes?.length ? { votes: decision.votes.map((vote) => ({ status: vote.status, source: vote.by.source })) } : {}),
    at: decidedAt,
  };
}

/** Every decision the thread holds, in the order they were made. */
export function decisionRecords(view: SessionView): DecisionRecord[] {
  return Object.values(view.interrupts)
    .filter((state) => state.decidedSeq !== undefined)
    .sort((a, b) => a.decidedSeq! - b.decidedSeq!)
    .flatMap((state) => decisionRecordOf(state) ?? []);
}
