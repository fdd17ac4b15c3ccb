// Where a thread stands, as every reader that opens it needs to know (the web app's first
// paint, the AG-UI hydration JSON): the run still going, the decisions it waits on and the run
// they paused, the last run's failure, and the cursor after which the session stream goes on.
import type { InterruptRecord } from '../../store/pauses';
import type { RunFailureDetails } from '../../store/events';
import { afterEvent, type Cursor } from './cursor';
import { pendingInterrupts, type SessionView } from '../session';

export interface ThreadStatus {
  status: SessionView['status'];
  /** A run still going: a reader re-joins it. */
  activeRunId: string | null;
  /** Undecided interrupts, oldest first. */
  pending: InterruptRecord[];
  /** The run they paused: a resume names it as its parentRunId. */
  interruptedRunId: string | null;
  /** The last run's failure, while the thread is in error; a model_error's details say whether a Retry may go through. */
  error: { code: string; message: string; details?: RunFailureDetails } | null;
  /** The session stream after this misses nothing of the view. */
  cursor: Cursor;
}

export function threadStatus(view: SessionView): ThreadStatus {
  const pending = pendingInterrupts(view);
  return {
    status: view.status,
    activeRunId: view.status === 'running' ? (view.lastRun?.runId ?? null) : null,
    pending,
    interruptedRunId: pending.at(-1)?.runId ?? null,
    error: view.status === 'error' ? (view.lastRun?.error ?? null) : null,
    cursor: afterEvent(view.seq),
  };
}
