// What the store shows of its thread at one moment: one immutable object, replaced on every
// change (subscribable.ts). Each part of the store changes its own fields through SnapshotHost.
import type { Interrupt, Message, State } from '@ag-ui/client';
import type { ContextCompactedValue, DecisionRecord, QueueItem } from '@/server/contract';
import type { AgentError } from './agent-error';
import type { InterruptDetails, InterruptResolution, ResolveOptions } from './interrupt-resolution';

export type AgentStatus = 'idle' | 'running' | 'error';

/**
 * An open interrupt as the UI needs it: the AG-UI interrupt, its metadata lifted out, the
 * decision staged for it so far, and the commands that stage one. A batch is submitted as
 * one resume run once every interrupt in it is validly staged.
 */
export interface PendingInterrupt extends Interrupt, InterruptDetails {
  resolution: InterruptResolution | null;
  /** Stages approve / reject (with edits, approval data, or the answer); may submit the batch. */
  resolveInterrupt: (approved: boolean, options?: ResolveOptions) => Promise<void>;
  /** Stages a cancel: the tool never runs and the turn ends. */
  cancel: () => Promise<void>;
  /** Takes the staged decision back (not once it is submitted). */
  clearResolution: () => void;
  /**
   * Declines to answer a question (`input_required`): the tool is told the person would not
   * answer, and the turn goes on. Sent at once, on its own.
   */
  decline: (reason?: string) => Promise<void>;
}

/**
 * What resolveInterrupts' callback may return for an interrupt: nothing (it resolved the
 * interrupt itself, through `interrupt.resolveInterrupt(...)` or `interrupt.cancel()`, or left
 * it), a boolean, approve/reject with options, or a cancel.
 */
export type InterruptDecision = void | undefined | boolean | 'cancel' | (ResolveOptions & { approved: boolean });

export interface AgentSnapshot {
  /**
   * The thread's messages in order. A model's reasoning is a `role: 'reasoning'` message of its
   * own, right before the assistant message it led to (docs/internals/architecture.md, "Reasoning and
   * provider metadata"): live from AG-UI's REASONING_* events, and from the server's snapshots.
   */
  messages: readonly Message[];
  state: State;
  status: AgentStatus;
  error: AgentError | null;
  /** The assistant message receiving streamed text right now. */
  streamingMessageId: string | null;
  /** The reasoning message receiving streamed reasoning right now. */
  streamingReasoningId: string | null;
  /** Subagent steps in progress (STEP_STARTED without its STEP_FINISHED). */
  activeSteps: readonly string[];
  /** Decisions the last run is waiting on, each with its staged resolution. */
  interrupts: readonly PendingInterrupt[];
  /** The server knows this thread: it had messages when loaded, or a run has started on it. */
  threadExists: boolean;
  /**
   * The last submission of decisions failed in a way that sending the same ones again may
   * fix (the connection, a busy thread), and every interrupt is still validly staged.
   */
  canRetryInterrupts: boolean;
  /** The last run failed on the server (a model error, a fault): retry() runs it again. */
  canRetry: boolean;
  /**
   * Messages sent while a turn ran or waited on a decision, in the order they go out
   * (docs/turn-control.md, "Queue"): the same in every tab, live from the session stream.
   */
  queue: readonly QueueItem[];
  /**
   * Every decision made on the thread, by the toolCallId it decided (docs/hitl.md, "Decisions
   * in the chat"): who decided what and when, and the arguments that ran. The same in every
   * tab and after a reload.
   */
  decisions: Readonly<Record<string, DecisionRecord>>;
  /** Tool calls a stop cut: they never ran, or did not finish. */
  stoppedToolCallIds: readonly string[];
  /**
   * Where the thread's older turns were compacted to fit the agent's context budget, oldest
   * first (docs/models.md, "Long threads"): the chat shows a notice after each one's last message.
   */
  compactions: readonly ContextCompactedValue[];
  /**
   * The thread's model as the page was rendered, or the one picked in this tab since, which the
   * next turn asks for (`forwardedProps.model`); null: the agent's default (docs/models.md,
   * "Choosing a model").
   */
  model: string | null;
}

/** What a part of the store reads and changes of the snapshot. */
export interface SnapshotHost {
  getSnapshot(): AgentSnapshot;
  publish(change: Partial<AgentSnapshot>): void;
}
