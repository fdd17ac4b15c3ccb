// Re-running a recording against agent code (docs/replay.md): on a scratch memory store, the
// recording's user messages go out turn by turn, each interrupt is answered by the recorded
// decision of its call, and the tools run dry (dry-run-agent.ts). Nothing leaves the process:
// no tool executes, no MCP server is reached, notices stay in the scratch store's outbox.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../authoring';
import type { DecisionActor, InterruptReason } from '../../store/pauses';
import type { StoredEvent } from '../../store/events';
import { createMemoryStore } from '../../store/memory-store';
import { loadView, pendingInterrupts, scopedSessionId } from '../session';
import { startRun } from '../turn-control';
import { answerInterrupt } from './answer-interrupt';
import { dryRunAgent } from './dry-run-agent';
import { decisionMatcher } from './matching';
import type { RecordedDecision, Recording } from './recording';

/** The owner of a replay's scratch session. */
const REPLAY_OWNER = 'replay';
/** Decision rounds per turn before a replay gives up on a turn that keeps pausing. */
const MAX_ROUNDS = 50;

/** An interrupt of the replay that no recorded decision answered: denied (or, a question, withdrawn). */
export interface UnrecordedInterrupt {
  toolName: string;
  input: unknown;
  reason: InterruptReason;
}

export interface ReplayRun {
  /** The replay's own log, oldest first: read with readRecording to compare. */
  events: StoredEvent[];
  unrecorded: UnrecordedInterrupt[];
  /** Recorded decisions no replayed call took. */
  unused: RecordedDecision[];
  /** Recorded decisions that matched a call but could not be made again — short of a quorum now, or refused — and why (withdrawn in the replay). */
  notApplied: { decision: RecordedDecision; why: string }[];
}

function findIn(agent: DeepAgent, name: string): DeepAgent | undefined {
  if (agent.name === name) return agent;
  for (const subagent of agent.subagents) {
    const found = findIn(subagent, name);
    if (found) return found;
  }
  return undefined;
}

export async function runReplay(recording: Recording, agent: DeepAgent): Promise<ReplayRun> {
  const store = createMemoryStore();
  const replayAgent = dryRunAgent(agent, recording.calls);
  const findAgent = (name: string) => findIn(replayAgent, name);
  const sessionId = scopedSessionId(REPLAY_OWNER, randomUUID());
  const matcher = decisionMatcher(recording.decisions);
  const unrecorded: UnrecordedInterrupt[] = [];
  const notApplied: ReplayRun['notApplied'] = [];
  let approvers = 0;
  // Each recorded vote is cast by an approver of its own, with every right: the replay's own session, in its own memory store.
  const nextApprover = (): DecisionActor => ({ source: 'server', credential: 'local', ownerId: `replay:${++approvers}`, client: 'replay' });
  // The turn's model when the agent still offers it (a replay against another agent may not).
  const model = recording.models.find((id) => agent.models.some((option) => option.id === id));

  const answerPending = async () => {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const pending = pendingInterrupts(await loadView(store, sessionId, replayAgent.initialState));
      if (pending.length === 0) return;
      const continuations: Promise<void>[] = [];
      for (const record of pending) {
        const recorded = matcher.take(record.toolName, record.input);
        if (!recorded) unrecorded.push({ toolName: record.toolName, input: record.input, reason: record.reason });
        const answered = await answerInterrupt({ store, findAgent, nextApprover }, record, recorded);
        if (recorded && answered.notApplied) notApplied.push({ decision: recorded, why: answered.notApplied });
        if (answered.continuation) continuations.push(answered.continuation);
      }
      await Promise.all(continuations);
    }
  };

  try {
    for (const messages of recording.turns) {
      const run = await startRun({ agent: replayAgent, store, sessionId, ownerId: REPLAY_OWNER, source: 'server', messages, ...(model ? { model } : {}) });
      await run.done;
      await answerPending();
    }
    return { events: await store.readEvents(sessionId), unrecorded, unused: matcher.unused(), notApplied };
  } finally {
    await store.close();
  }
}
