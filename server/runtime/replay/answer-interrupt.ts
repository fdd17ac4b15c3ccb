// A replayed interrupt answered (docs/replay.md, "Decisions by call"): with the recorded
// decision of the same call — each recorded vote again when it took a quorum — or, when nobody
// decided that call, denied (a question, which cannot be denied, withdrawn). Each vote is cast by
// a replay approver of its own, as a verified approver (the people recorded were allowed then),
// through the same out-of-band pipeline as /api/hitl.
import type { FindAgent } from '../../authoring';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import type { EventStore } from '../../store/types';
import { Refusal } from '../errors';
import type { DecisionRequest } from '../decisions';
import { decideInterrupt } from '../turn-control';
import type { RecordedDecision } from './recording';

/** The reason a replay gives an interrupt nobody decided in the recording. */
const UNRECORDED_REASON = 'No recorded decision for this call (replay).';

type Ballot = Omit<DecisionRequest, 'interruptId'>;

function ballotsOf(recorded: RecordedDecision | undefined): Ballot[] {
  if (!recorded) return [{ status: 'denied', reason: UNRECORDED_REASON }];
  const { decision } = recorded;
  const votes = (decision.votes ?? []).map((vote): Ballot => ({ status: vote.status, reason: vote.reason, payload: vote.payload }));
  const final: Ballot = { status: decision.status, editedArgs: decision.editedArgs, payload: decision.payload, reason: decision.reason };
  return votes.length > 0 ? votes : [final];
}

interface Answered {
  /** The run the decision started, when it completed its batch. */
  continuation?: Promise<void>;
  /** Why the recorded decision could not be made again (it was withdrawn instead). */
  notApplied?: string;
}

export async function answerInterrupt(
  options: { store: EventStore; findAgent: FindAgent; nextApprover: () => DecisionActor },
  record: InterruptRecord,
  recorded: RecordedDecision | undefined,
): Promise<Answered> {
  const decide = (request: Ballot) =>
    decideInterrupt({
      store: options.store,
      findAgent: options.findAgent,
      interruptId: record.id,
      request,
      by: options.nextApprover(),
    });
  let why = 'the recorded votes no longer reach its quorum';
  for (const ballot of ballotsOf(recorded)) {
    try {
      const result = await decide(ballot);
      if (result.decision) return { continuation: result.continuation?.done };
    } catch (error) {
      // A question has no denial, and an edit the changed tool refuses is no decision: withdrawn below.
      if (!(error instanceof Refusal)) throw error;
      why = `refused: ${error.message}`;
      break;
    }
  }
  const withdrawn = await decide({ status: 'cancelled' });
  return { continuation: withdrawn.continuation?.done, ...(recorded ? { notApplied: why } : {}) };
}
