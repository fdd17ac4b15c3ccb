// What trusted server code may append to a session besides messages: a decision, a turn's
// control, a change to the queue (docs/turn-control.md, "Server append"). Plain data, built by
// `inputs` (server/runtime/session/inputs.ts) and carried out by `session(...).append`, each
// through the same path its HTTP route takes — a decision through the one decision pipeline,
// a stop through the persisted stop — so the rules are the same whoever sends it.

/** A decision on a pending approval (`approved` or not), as its session's owner gives it. */
export interface ApprovalCommand {
  command: 'approval';
  /** The interrupt's id: `approvalId` in `state.pendingApprovals`, `interruptId` on AG-UI. */
  approvalId: string;
  approved: boolean;
  reason?: string;
  /** Arguments to run instead of the model's (approve only). */
  editedArgs?: unknown;
  /** approvalSchema data (docs/hitl.md, "Decision data"). */
  payload?: unknown;
}

/** The answer to a question a tool asked (`requestInput`), checked against its schema. */
export interface InputCommand {
  command: 'input';
  /** The interrupt's id: `inputId` in `state.pendingInputs`. */
  inputId: string;
  value: unknown;
}

/** Runs the session's failed turn again; the same `retryId` twice is one retry. */
export interface RetryCommand {
  command: 'retry';
  retryId: string;
}

/**
 * Stops a run, keeping the reply up to `frontier`. Without `runId`, whichever run is in
 * progress (`inputs.stop()`); with it, that run only (`inputs.interrupt()`): a stop meant for
 * an ended run cannot stop its successor.
 */
export interface StopCommand {
  command: 'stop';
  runId?: string;
  frontier?: string | null;
}

/** Guidance for the run in progress, taken at its next step boundary (docs/turn-control.md, "Steer"). */
export interface SteerCommand {
  command: 'steer';
  id: string;
  text: string;
  runId?: string;
}

/** A change to a message waiting in the session's queue (docs/turn-control.md, "Queue"). */
export type QueueCommand = { command: 'queue' } & (
  | { op: 'edit'; messageId: string; content: string }
  | { op: 'move'; messageId: string; index: number }
  | { op: 'remove'; messageId: string }
  | { op: 'sendNow'; messageId: string }
);

export type SessionCommand = ApprovalCommand | InputCommand | RetryCommand | StopCommand | SteerCommand | QueueCommand;

/** Whether an appended item is a command rather than a message (messages have a `role`, commands a `command`). */
export function isSessionCommand(item: object): item is SessionCommand {
  return 'command' in item && !('role' in item);
}
