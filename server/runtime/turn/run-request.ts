// What a run is asked to do and what starting one answers: the request every surface builds (a
// wire, a decision, the queue, a timer, recovery) and the handle it gets back.
import type { DeepAgent } from '../../authoring';
import type { Decision, DecisionActor, Grant } from '../../store/pauses';
import type { RunSource, SessionEvent } from '../../store/events';
import type { ChatMessage, ToolCall } from '../../store/messages';
import type { EventStore, QueuedMessage, SessionRecord } from '../../store/types';
import type { DecisionInput, PlannedDecision } from '../decisions';
import type { SessionView } from '../session';
import type { CursorPosition, RunPart, StreamPart } from '../stream';
import type { ClientTool } from '../tools';

export interface RunRequest {
  agent: DeepAgent;
  store: EventStore;
  sessionId: string;
  ownerId: string;
  /** false for a stateless turn: the store is a throwaway one. */
  durable?: boolean;
  runId?: string;
  parentRunId?: string;
  source: RunSource;
  /** The client's messages; merged by id. */
  messages: ChatMessage[];
  clientTools?: ClientTool[];
  state?: unknown;
  /**
   * Decisions the run starts with: one per open interrupt, all or nothing (docs/hitl.md). In
   * runtime terms or as responses in the interrupts' responseSchema shape (an AG-UI resume).
   */
  decisions?: DecisionInput[];
  /** An identical replay of decisions already applied is answered, not refused (AG-UI clients resend a resume they are unsure arrived). */
  replayable?: boolean;
  /** Who makes the decisions, for the audit trail (default: the run's source and owner). */
  decidedBy?: DecisionActor;
  /**
   * Re-runs the last run, which failed: completed steps and tool results stay, the failed
   * step's partial output leaves the conversation, the model is called again. The same
   * retryId again is the same retry (docs/turn-control.md).
   */
  retry?: { retryId: string };
  /**
   * When the session is busy — a run in progress ('running'), or that or a decision pending
   * ('running-or-waiting') — the request's new user messages are queued, and the run it gets
   * is the last one's, once it goes out (docs/turn-control.md, "Queue"). Absent: refused.
   */
  queue?: 'running' | 'running-or-waiting';
  /**
   * The model the client chose for the turn, one of the agent's `models` (refused as
   * unknown_model otherwise). Absent: the thread's current model. A continuation keeps its
   * turn's model whatever this says (docs/models.md, "Choosing a model").
   */
  model?: string;
  /** A stateless turn ends with its request; a durable run outlives it (only a persisted stop ends it early). */
  signal?: AbortSignal;
  /** A stateless turn's advice, in its wire's terms, for getting a turn that can wait for a person. */
  durableHint?: string;
  /**
   * A call the server makes, not the model: it undoes the effect of call `of`, which the thread's
   * original made after the fork point (docs/time-travel.md, "Undoing a dropped effect"). It
   * passes the tool's approval like any call; the model carries on after it. `key`: the
   * idempotency key it runs under, the same in every fork that undoes that effect.
   */
  undo?: { of: string; call: ToolCall; key: string };
  /**
   * The log head the caller decided to run on (recovery: a run that looked abandoned there). If
   * the log moved since — that run finished after all — the request is refused as session_busy
   * and writes nothing, rather than running the model again on a turn that was answered.
   */
  atSeq?: number;
  /**
   * A session the caller has read and decided on already (an out-of-band decision,
   * turn-control/decide-out-of-band.ts): the run starts on that very reading, with those expiries
   * and those validated decisions, and reads and checks none of it again — its first append is a
   * compare-and-set on `view.seq`, so a write since refuses the start as session_busy
   * (docs/internals/architecture.md, "One pass per request").
   */
  opened?: OpenedSession;
}

/** What a decision's caller read and planned, handed to the run it starts. */
interface OpenedSession {
  session: SessionRecord;
  view: SessionView;
  /** The expiries and escalations due on `view`, written with the decisions. */
  expired: SessionEvent[];
  /** The decisions, as planDecisions validated them on `view` after `expired`. */
  decided: PlannedDecision[];
}

export interface StartedRun {
  sessionId: string;
  runId: string;
  /** The run's parts from its start. Reading them is optional: the run goes on without a reader. */
  parts: AsyncIterable<RunPart>;
  /** The run's parts with their cursors, after `after` (from the start when null), live until the run ends or `signal` aborts. */
  stream(after?: CursorPosition | null, signal?: AbortSignal): AsyncIterable<StreamPart>;
  /** Settles when the run has written its last event. */
  done: Promise<void>;
  /** The decisions the run recorded with its start, as validated (edits and data parsed). */
  decided?: { interruptId: string; decision: Decision; grant?: Grant }[];
  /** The session was busy: these messages were queued; the run is the last one's, which starts when it goes out. */
  queued?: QueuedMessage[];
}

/**
 * The message queue as a turn sees it (docs/turn-control.md, "Queue"), handed in by whoever
 * starts the turn (turn-control/turns.ts) so the turn never imports the queue that starts turns.
 */
export interface TurnQueue {
  /** The session is busy: queue these new messages; the answer is the run of the last, once it goes out. */
  queueBehind(request: RunRequest, messages: ChatMessage[]): Promise<StartedRun>;
  /** The turn ended: send the next queued message if the session fell idle. Never throws. */
  afterTurn(request: RunRequest): Promise<void>;
}
