// The batch rules, the one place where a decision is refused for what happened to the thread:
// an interrupt addressed twice, unknown, of another thread, decided already (or expired), or —
// for a whole batch — left out. An identical replay of an applied batch is recognised and runs
// nothing twice. Every path comes through here: an AG-UI or TanStack resume, /api/hitl and
// the CLI (docs/internals/architecture.md, "The decision pipeline").
import { own } from '../common';
import type { DeepAgent } from '../../authoring';
import type { Decision, DecisionActor, Grant, Vote } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import { grantOfDecision } from './grants';
import { findToolAgent } from './approval-policy';
import { Refusal } from '../errors';
import type { DecisionRequest } from './read-decision';
import type { SessionView } from '../session';
import { pendingInterrupts } from '../session';
import { validateDecision } from './validate-decision';
import { tally } from './votes';

/** Same decision, same content: an identical replay of a resume that already applied. */
function sameDecision(recorded: Decision, request: DecisionRequest): boolean {
  if (recorded.status !== request.status) return false;
  if (request.status === 'cancelled') return true;
  const canonical = (value: unknown) => JSON.stringify(value ?? null);
  return (
    canonical(recorded.editedArgs) === canonical(request.editedArgs) &&
    (request.payload === undefined || canonical(recorded.payload) === canonical(request.payload)) &&
    (recorded.reason ?? null) === (request.reason ?? null)
  );
}

/** One decision to record, with the grant its approval came with (docs/approvals.md, "Scoped grants"). */
export interface PlannedDecision {
  interruptId: string;
  decision: Decision;
  grant?: Grant;
}

/** `votes`: approvals (or rejections) short of their interrupt's quorum, to record as votes (docs/approvals.md). */
export type DecisionPlan = { kind: 'apply'; decisions: PlannedDecision[]; votes: { interruptId: string; vote: Vote }[] } | { kind: 'replay' };

/** The events that record planned decisions: each decision, then the grant it came with. */
export function decisionEvents(decisions: PlannedDecision[]): SessionEvent[] {
  return decisions.flatMap(({ interruptId, decision, grant }): SessionEvent[] => [
    { type: 'interrupt_decided', interruptId, decision },
    ...(grant ? [{ type: 'grant_added' as const, grant }] : []),
  ]);
}

export interface PlanOptions {
  /** Whether an id this thread lacks belongs to another thread of the same owner, for a precise error. */
  elsewhere: (interruptId: string) => Promise<boolean>;
  /** A client may resend a resume it is unsure arrived (AG-UI): an identical one runs nothing and is answered. Out of band, a second decision is refused. */
  replayable: boolean;
  /** Out of band, one decision of a batch at a time; a resume addresses the whole open batch. */
  partial: boolean;
  /** Whose session it is: who asked, for `requesterMayApprove: false` (docs/approvals.md). */
  sessionOwnerId: string;
  /**
   * Out of band, an approval short of its quorum is recorded as a vote; a resume that would only
   * vote is refused (`quorum_pending`), so a run never starts on an interrupt still waiting.
   */
  mayVote: boolean;
}

/**
 * Checks decisions against the thread: each interrupt addressed once, known on this thread,
 * still open, and — unless `partial` — the whole open batch addressed (all or nothing). Then
 * validates each. Throws Refusal with the first problem; nothing is written here.
 */
export async function planDecisions(
  agent: DeepAgent,
  view: SessionView,
  requests: DecisionRequest[],
  by: DecisionActor,
  options: PlanOptions,
): Promise<DecisionPlan> {
  const seen = new Set<string>();
  for (const request of requests) {
    if (seen.has(request.interruptId))
      throw new Refusal('resume_duplicate', `Interrupt ${request.interruptId} is addressed twice in one resume.`, { interruptId: request.interruptId });
    seen.add(request.interruptId);
    if (!own(view.interrupts, request.interruptId)) {
      if (await options.elsewhere(request.interruptId)) {
        throw new Refusal('interrupt_other_thread', `Interrupt ${request.interruptId} belongs to another thread.`, { interruptId: request.interruptId });
      }
      throw new Refusal('not_found', `No interrupt ${request.interruptId} on this thread.`, { what: 'interrupt', interruptId: request.interruptId });
    }
  }
  const decided = requests.filter((request) => view.interrupts[request.interruptId]!.decision);
  if (decided.length > 0) {
    const identical =
      options.replayable &&
      decided.length === requests.length &&
      requests.every((request) => sameDecision(view.interrupts[request.interruptId]!.decision!, request));
    if (identical) return { kind: 'replay' };
    const { record, decision } = view.interrupts[decided[0]!.interruptId]!;
    // What was decided, and from where — not who: the decider may be another owner (a key holder).
    const told = { status: decision!.status, ...(decision!.expired ? { expired: true } : {}), by: { source: decision!.by.source } };
    if (decision!.expired) {
      throw new Refusal('interrupt_expired', `Interrupt ${record.id} expired at ${record.expiresAt} and took its default action (${record.onExpire}).`, {
        interruptId: record.id,
        decision: told,
      });
    }
    throw new Refusal('interrupt_already_decided', `Interrupt ${record.id} was already decided (${decision!.status}).`, {
      interruptId: record.id,
      decision: told,
    });
  }
  if (!options.partial) {
    const missing = pendingInterrupts(view)
      .map((record) => record.id)
      .filter((id) => !seen.has(id));
    if (missing.length > 0) {
      throw new Refusal('resume_incomplete', `A resume must address every open interrupt; missing: ${missing.join(', ')}.`, { missing });
    }
  }
  const decisions: PlannedDecision[] = [];
  const votes = [];
  for (const request of requests) {
    const state = view.interrupts[request.interruptId]!;
    const validated = await validateDecision(agent, state.record, request, by, options.sessionOwnerId);
    // validateDecision found the tool's agent, or refused. A grant is checked before any vote: a quorum tool grants nothing.
    const grant = grantOfDecision(findToolAgent(agent, state.record.agent)!, state.record, request, by);
    const ballot = tally(state, validated);
    if (ballot.kind === 'decision') {
      decisions.push({ interruptId: request.interruptId, decision: ballot.decision, ...(grant ? { grant } : {}) });
      continue;
    }
    if (!options.mayVote) {
      const cast = (state.votes ?? []).filter((vote) => vote.status === ballot.vote.status).length + 1;
      throw new Refusal(
        'quorum_pending',
        `Interrupt ${request.interruptId} needs ${state.record.quorum} distinct approvers; this would be vote ${cast}. Vote from Studio, the CLI, /api/hitl or a link.`,
        { interruptId: request.interruptId, quorum: state.record.quorum, votes: (state.votes ?? []).length },
      );
    }
    votes.push({ interruptId: request.interruptId, vote: ballot.vote });
  }
  return { kind: 'apply', decisions, votes };
}
