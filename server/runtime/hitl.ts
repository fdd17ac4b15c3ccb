// Deciding out of band (SPEC §8): the HTTP API, the CLI and the Studio all come through
// here, and through the same validation as an AG-UI resume. The last decision of a batch
// starts the continuation run in the same append, so no decided batch is ever left idle.
import type { DeepAgent } from '../define';
import { ConcurrentAppendError, type EventStore } from '../store/types';
import { validateDecision, type DecisionRequest } from './decide';
import type { Decision, DecisionActor, InterruptRecord } from './events';
import { RunRejectedError } from './errors';
import { pendingInterrupts } from './reduce';
import { loadView } from './views';
import { startRun, type StartedRun } from './turn';

export interface DecideOptions {
  store: EventStore;
  findAgent: (name: string) => DeepAgent | undefined;
  ownerId: string;
  interruptId: string;
  request: Omit<DecisionRequest, 'interruptId'>;
  by: DecisionActor;
}

export interface DecideResult {
  sessionId: string;
  interrupt: InterruptRecord;
  decision: Decision;
  /** The run that carries the decided batch on; absent while other interrupts of the batch wait. */
  continuation?: StartedRun;
}

const ATTEMPTS = 5;

export async function decideInterrupt(options: DecideOptions): Promise<DecideResult> {
  const { store, ownerId, interruptId } = options;
  const row = await store.findInterrupt(interruptId);
  if (!row || row.ownerId !== ownerId) throw new RunRejectedError('not_found', `No interrupt ${interruptId}.`, 404);
  const session = await store.getSession(row.sessionId);
  const agent = session && options.findAgent(session.agent);
  if (!session || !agent) throw new RunRejectedError('not_found', `No interrupt ${interruptId}.`, 404);
  const request: DecisionRequest = { ...options.request, interruptId };

  for (let attempt = 1; ; attempt++) {
    const view = await loadView(store, session.id, agent.initialState);
    const state = view.interrupts[interruptId];
    if (!state) throw new RunRejectedError('not_found', `No interrupt ${interruptId}.`, 404);
    if (state.decision) {
      throw new RunRejectedError('interrupt_already_decided', `Interrupt ${interruptId} was already decided (${state.decision.status}${state.decision.expired ? ', on expiry' : ''}).`, 409, { decision: state.decision });
    }
    const decision = await validateDecision(agent, state.record, request, options.by);
    const othersWaiting = pendingInterrupts(view).some((record) => record.id !== interruptId);
    try {
      if (othersWaiting) {
        await store.append(session.id, view.seq, [{ type: 'interrupt_decided', interruptId, decision }], { status: view.status });
        return { sessionId: session.id, interrupt: state.record, decision };
      }
      const continuation = await startRun({
        agent,
        store,
        sessionId: session.id,
        ownerId: session.ownerId,
        source: 'hitl',
        parentRunId: state.record.runId,
        messages: [],
        decisions: [request],
        decidedBy: options.by,
      });
      return { sessionId: session.id, interrupt: state.record, decision, continuation };
    } catch (error) {
      // Someone else wrote first: read again; their decision, if it was on this interrupt, wins.
      const raced = ConcurrentAppendError.is(error) || (error instanceof RunRejectedError && error.code === 'session_busy');
      if (!raced || attempt >= ATTEMPTS) throw error;
    }
  }
}
