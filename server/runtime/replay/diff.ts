// What changed between a recording and its replay (docs/replay.md, "The diff"): the tool calls
// added, removed or called with other arguments; the calls whose need for a person's approval
// changed; the recorded decisions no call took any more and the new interrupts nobody had
// decided; and the answers, turn by turn and final.
import { isDeepStrictEqual } from 'node:util';
import type { RecordedCall, RecordedDecision, Recording } from './recording';
import type { ReplayRun, UnrecordedInterrupt } from './run-replay';

interface CallRef {
  toolName: string;
  input: unknown;
}

export interface ReplayDiff {
  identical: boolean;
  calls: { added: CallRef[]; removed: CallRef[]; changed: { toolName: string; before: unknown; after: unknown }[] };
  approvals: { newlyNeeded: CallRef[]; noLongerNeeded: CallRef[] };
  decisions: { unused: (CallRef & { status: string })[]; unrecorded: UnrecordedInterrupt[]; notApplied: (CallRef & { status: string; why: string })[] };
  /** Turns before the last whose answer changed (1-based): the last one is `finalAnswer`. */
  answers: { turn: number; before: string; after: string }[];
  finalAnswer: { before: string; after: string } | null;
}

const ref = (call: { toolName: string; input: unknown }): CallRef => ({ toolName: call.toolName, input: call.input });

/** Pairs the calls of both sides: first the same call (deep-equal arguments), then the same tool in order; the rest are added or removed. */
function pairCalls(before: readonly RecordedCall[], after: readonly RecordedCall[]) {
  const left = [...before];
  const same: [RecordedCall, RecordedCall][] = [];
  const unpaired: RecordedCall[] = [];
  for (const call of after) {
    const index = left.findIndex((old) => old.toolName === call.toolName && isDeepStrictEqual(old.input, call.input));
    if (index < 0) unpaired.push(call);
    else same.push([left.splice(index, 1)[0]!, call]);
  }
  const changed: [RecordedCall, RecordedCall][] = [];
  const added: RecordedCall[] = [];
  for (const call of unpaired) {
    const index = left.findIndex((old) => old.toolName === call.toolName);
    if (index < 0) added.push(call);
    else changed.push([left.splice(index, 1)[0]!, call]);
  }
  return { same, changed, added, removed: left };
}

export function diffReplay(recorded: Recording, replayed: Recording, run: Pick<ReplayRun, 'unrecorded' | 'unused' | 'notApplied'>): ReplayDiff {
  const { same, changed, added, removed } = pairCalls(recorded.calls, replayed.calls);
  const decisionRef = (decision: RecordedDecision) => ({ ...ref(decision), status: decision.decision.status });
  const diff: Omit<ReplayDiff, 'identical'> = {
    calls: {
      added: added.map(ref),
      removed: removed.map(ref),
      changed: changed.map(([before, after]) => ({ toolName: after.toolName, before: before.input, after: after.input })),
    },
    approvals: {
      newlyNeeded: same.filter(([before, after]) => !before.askedApproval && after.askedApproval).map(([, after]) => ref(after)),
      noLongerNeeded: same.filter(([before, after]) => before.askedApproval && !after.askedApproval).map(([, after]) => ref(after)),
    },
    decisions: {
      unused: run.unused.map(decisionRef),
      unrecorded: run.unrecorded,
      notApplied: run.notApplied.map(({ decision, why }) => ({ ...decisionRef(decision), why })),
    },
    answers: recorded.answers
      .slice(0, -1)
      .flatMap((before, index) => (before === (replayed.answers[index] ?? '') ? [] : [{ turn: index + 1, before, after: replayed.answers[index] ?? '' }])),
    finalAnswer: recorded.finalAnswer === replayed.finalAnswer ? null : { before: recorded.finalAnswer, after: replayed.finalAnswer },
  };
  const identical =
    [diff.calls.added, diff.calls.removed, diff.calls.changed, diff.approvals.newlyNeeded, diff.approvals.noLongerNeeded].every((list) => list.length === 0) &&
    [diff.decisions.unused, diff.decisions.unrecorded, diff.decisions.notApplied].every((list) => list.length === 0) &&
    diff.answers.length === 0 &&
    diff.finalAnswer === null;
  return { identical, ...diff };
}
