// Deciding out of band: the HTTP API and the CLI that speaks it come through here (docs/hitl.md,
// "Out of band"). It is the same pipeline as a resume — readDecision, planDecisions,
// validateDecision, one compare-and-set append — with a partial batch: a decision that leaves
// others of its batch open is recorded alone; the last one starts the continuation run, which
// records it in the run's first append, so no decided batch is ever left idle. On an interrupt
// with a quorum, an approval short of it is a vote of its own (docs/approvals.md, "Quorum and
// separation of duties"); the compare-and-set makes racing final votes one decision and one run.
import { own } from '../common';
import type { FindAgent } from '../../authoring';
import { ConcurrentAppendError, type EventStore, type SessionRecord } from '../../store/types';
import type { Decision, DecisionActor, Grant, InterruptRecord, Vote } from '../../store/pauses';
import { Refusal } from '../errors';
import { decisionEvents, expiryEvents, mayDecide, planDecisions, toldWhoDecides, type DecisionRequest } from '../decisions';
import { foldEvents, loadSessionView, pendingInterrupts, sessionKeyOf } from '../session';
import { startRun } from './turns';
import type { StartedRun } from '../turn';

export interface DecideOptions {
  store: EventStore;
  findAgent: FindAgent;
  interruptId: string;
  request: Omit<DecisionRequest, 'interruptId'>;
  /**
   * Who decides: a caller's own owner id and credential, or a link's bound person
   * (who-may-decide.ts, linkActor). Never the session's owner on a link's behalf.
   */
  by: DecisionActor;
  /**
   * The chat's own thread (its decide route): the interrupt must wait in this session, which
   * must be the decider's; any other is not found.
   */
  inSession?: string;
}

export interface DecideResult {
  sessionId: string;
  interrupt: InterruptRecord;
  /** The decision made; absent when this was a vote short of the interrupt's quorum. */
  decision?: Decision;
  /** The vote recorded, when it did not reach the quorum (docs/approvals.md, "Quorum and separation of duties"). */
  vote?: Vote;
  /** The grant the approval came with (docs/approvals.md, "Scoped grants"). */
  grant?: Grant;
  /** The continuation that carries the decided batch on; absent while other interrupts of the batch, or more votes, wait. */
  continuation?: StartedRun;
}

/** Three approvers racing need at most three tries each: every lost race is a write by another. */
const ATTEMPTS = 5;

/**
 * Records one decision, read once: the interrupt, the session and its log, then one
 * compare-and-set append — or, for the last of a batch, the continuation run started on that
 * same reading with the decision as planned here (docs/internals/architecture.md, "One pass per request").
 */
export async function decideInterrupt(options: DecideOptions): Promise<DecideResult> {
  const { store, interruptId, by, inSession } = options;
  const row = await store.findInterrupt(interruptId);
  const notFound = () =>
    new Refusal('not_found', inSession ? `No interrupt "${interruptId}" on thread "${sessionKeyOf(inSession)}".` : `No interrupt ${interruptId}.`, {
      what: 'interrupt',
    });
  if (!row || (inSession !== undefined && (row.sessionId !== inSession || row.ownerId !== by.ownerId))) throw notFound();
  if (!(mayDecide(row.record, row.ownerId, by) || toldWhoDecides(row.record, by))) throw notFound();
  const found = await store.getSession(row.sessionId);
  const agent = found && options.findAgent(found.agent);
  if (!found || !agent) throw notFound();
  const request: DecisionRequest = { ...options.request, interruptId };

  for (let attempt = 1, known: SessionRecord = found; ; attempt++) {
    // The record as new as the log: a lease taken since the first read shows (a retry reads both again).
    const { session, view: stored } = await loadSessionView(store, known, agent.initialState);
    known = session;
    // An escalation due is written with the decision, so a decision it extends the wait for is taken (docs/approvals.md).
    const expired = expiryEvents(stored);
    const view = foldEvents(stored, expired);
    const record = own(view.interrupts, interruptId)?.record;
    if (!record) throw new Refusal('not_found', `No interrupt ${interruptId}.`, { what: 'interrupt' });
    try {
      // Not replayable: a second decision on this interrupt is refused (as is a second vote by one approver).
      const plan = await planDecisions(agent, view, [request], by, {
        elsewhere: async () => false,
        replayable: false,
        partial: true,
        sessionOwnerId: session.ownerId,
        mayVote: true,
      });
      const { decisions, votes } = plan as Extract<typeof plan, { kind: 'apply' }>;
      // Short of the quorum: a vote, appended with the compare-and-set on the head this tally read.
      const vote = votes[0]?.vote;
      if (vote) {
        await store.append(session.id, stored.seq, [...expired, { type: 'interrupt_voted', interruptId, vote }], { status: view.status });
        return { sessionId: session.id, interrupt: record, vote };
      }
      if (pendingInterrupts(view).some((pending) => pending.id !== interruptId)) {
        const [{ decision, grant }] = decisions as [(typeof decisions)[number]];
        await store.append(session.id, stored.seq, [...expired, ...decisionEvents(decisions)], { status: view.status });
        return { sessionId: session.id, interrupt: record, decision, ...(grant ? { grant } : {}) };
      }
      const continuation = await startRun({
        agent,
        store,
        sessionId: session.id,
        ownerId: session.ownerId,
        source: 'hitl',
        parentRunId: record.runId,
        messages: [],
        decidedBy: by,
        // The run starts on the reading the tally above was made on: a vote or decision written since makes its first append refuse, and this loop read again.
        opened: { session, view: stored, expired, decided: decisions },
      });
      // The run recorded the decision in its first append.
      const { decision, grant } = continuation.decided!.find((entry) => entry.interruptId === interruptId)!;
      return { sessionId: session.id, interrupt: record, decision, ...(grant ? { grant } : {}), continuation };
    } catch (error) {
      // Someone else wrote first: read again; their decision, if it was on this interrupt, wins.
      const raced = ConcurrentAppendError.is(error) || (error instanceof Refusal && error.code === 'session_busy');
      if (!raced || attempt >= ATTEMPTS) throw error;
    }
  }
}
