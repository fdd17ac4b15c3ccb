// The types of a run in progress: what it knows of the request that started it, the
// conversations it advances (the root thread, a delegated task), where advancing one stopped,
// and what a tool call came to.
import type { LanguageModel } from 'ai';
import type { DeepAgent } from '../../authoring';
import type { RunFailureCode } from '../../error-codes';
import type { InterruptRecord } from '../../store/pauses';
import type { RunFailureDetails, RunSource, SessionEvent } from '../../store/events';
import type { JsonObject } from '../../store/messages';
import type { EventStore } from '../../store/types';
import type { ClientTool } from '../tools';
import type { FirstLook } from './first-look';

/** What a run needs to know about the request that started it. */
export interface RunnerRequest {
  agent: DeepAgent;
  store: EventStore;
  sessionId: string;
  ownerId: string;
  durable?: boolean;
  parentRunId?: string;
  source: RunSource;
  clientTools?: ClientTool[];
  /** Ends a stateless turn with its request. A durable run ignores its request: only a persisted stop ends it early. */
  signal?: AbortSignal;
  /** The session watched from before the run's creating append: whether its first look beside the log may be skipped (first-look.ts). */
  firstLook?: FirstLook;
  /** The paused run this one continues (decisions resume it): guidance sent to it while it paused is taken in here. */
  resumesRunId?: string;
  /** A stateless turn's advice, in its wire's terms, for getting a turn that can wait for a person (docs/internals/wires.md, "Stateless turns"). */
  durableHint?: string;
  /** The model id the run's root thread runs on, as recorded on run_started (docs/models.md, "Choosing a model"). */
  model: string;
}

/** A conversation the loop advances. */
export interface Scope {
  /** undefined for the root thread; `task:<delegate_task call id>` for a delegated task. */
  id?: string;
  agent: DeepAgent;
  /** The root thread streams its text and tool calls; a task works quietly inside its step. */
  live: boolean;
  clientTools: ClientTool[];
  /** The model its steps call; a delegated task's subagent runs on its own default. */
  model: string | LanguageModel;
}

/** Where advancing a conversation stopped. */
export type Advance =
  /**
   * The model answered in text; its final step is not yet written (it goes with what follows),
   * unless `written`: the root thread's answer, written with the run's end (turn-runner.ts).
   */
  | { kind: 'answered'; step: SessionEvent; text: string; written?: boolean }
  | { kind: 'paused'; opened: InterruptRecord[] }
  | { kind: 'awaiting-client'; toolCallIds: string[] }
  | { kind: 'cancelled'; before: SessionEvent[] }
  | { kind: 'failed'; code: RunFailureCode; message: string; details?: RunFailureDetails; before?: SessionEvent[] };

export type ResultOutcome = {
  ok: boolean;
  content: string;
  output?: unknown;
  /** The state after the call: the tool's draft. */
  state: JsonObject;
  /** The state the draft started from, when other writes may have come in between (concurrent calls). */
  base?: JsonObject;
  status?: 'denied' | 'cancelled';
};
