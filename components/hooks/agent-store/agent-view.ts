// The snapshot as useAgent hands it out, in both vocabularies the hook answers to
// (docs/hitl.md, "The a2 names"): TanStack AI's — `interrupts`, each with resolveInterrupt —
// as the store has it, and experimental-a2's beside it — `state.pendingApprovals`,
// `state.pendingInputs`, `state.active` and `status: 'failed'`. A pure function of the
// snapshot: the decisions behind both are the interrupt batch's.
import type { State } from '@ag-ui/client';
import type { AgentSnapshot, AgentStatus, PendingInterrupt } from './snapshot';

/** An open approval, as experimental-a2 names it: its `approvalId` is the interrupt's id. */
export interface PendingApproval extends PendingInterrupt {
  approvalId: string;
}

/** An open request for input (`requestInput()` on the server); `respond(input, value)` answers it. */
export interface PendingInput extends PendingInterrupt {
  inputId: string;
}

/** What the thread is waiting on and doing, read beside the shared state. */
export interface ThreadActivity {
  readonly pendingApprovals: readonly PendingApproval[];
  readonly pendingInputs: readonly PendingInput[];
  /** A turn is running: stop() stops it. (A turn waiting on a decision is not: cancel that.) */
  readonly active: boolean;
}

/**
 * The shared state with the thread's activity on it, as non-enumerable read-only fields: they
 * read like state (`state.pendingApprovals`) but are never part of it — spreading, `Object.keys`
 * and `JSON.stringify` see the shared state alone, so it can go back to setState() as it is.
 * A shared-state key of the same name wins over them.
 */
export type AgentState<S extends object = Record<string, unknown>> = S & ThreadActivity;

/** The store's status, and `failed`: the last run failed on the server and retry() runs it again. */
export type AgentViewStatus = AgentStatus | 'failed';

export interface AgentView<S extends object = Record<string, unknown>> extends Omit<AgentSnapshot, 'status' | 'state'> {
  status: AgentViewStatus;
  state: AgentState<S>;
  pendingApprovals: readonly PendingApproval[];
  pendingInputs: readonly PendingInput[];
}

export function agentView<S extends object = Record<string, unknown>>(snapshot: AgentSnapshot): AgentView<S> {
  const pendingApprovals = snapshot.interrupts
    .filter((interrupt) => interrupt.kind !== 'input')
    .map((interrupt) => ({ ...interrupt, approvalId: interrupt.id }));
  const pendingInputs = snapshot.interrupts.filter((interrupt) => interrupt.kind === 'input').map((interrupt) => ({ ...interrupt, inputId: interrupt.id }));
  const activity: ThreadActivity = { pendingApprovals, pendingInputs, active: snapshot.status === 'running' };
  return {
    ...snapshot,
    // `canRetry` is exactly when retry() runs the turn again.
    status: snapshot.canRetry ? 'failed' : snapshot.status,
    state: withActivity<S>(snapshot.state, activity),
    pendingApprovals,
    pendingInputs,
  };
}

function withActivity<S extends object>(state: State, activity: ThreadActivity): AgentState<S> {
  const view = { ...(state ?? {}) } as Record<string, unknown>;
  for (const [key, value] of Object.entries(activity)) {
    if (!Object.hasOwn(view, key)) Object.defineProperty(view, key, { value, enumerable: false });
  }
  return view as AgentState<S>;
}
