// The event vocabulary of a durable session: the spine of the runtime.
// A session is an append-only log of these; every view a client sees (messages, shared
// state, pending interrupts, run status) is a pure fold of them (see runtime/session/reduce.ts).
// Events are wire-neutral: wires translate them, never the other way round. What they carry is in
// messages.ts (a conversation's parts) and pauses.ts (a pause for a person and its decision).
import type { Operation } from 'fast-json-patch';
import type { RunFailureCode } from '../error-codes';
import type { Decision, DecisionActor, Grant, InterruptRecord, Vote } from './pauses';
import type { AssistantMessage, ChatMessage, ProviderMetadata, ToolMessage } from './messages';

/** Where an input came from; recorded on run_started for the audit trail. */
export type RunSource = 'agui' | 'openai' | 'anthropic' | 'hitl' | 'server' | 'mcp';

/** Where a forked thread came from (docs/time-travel.md). */
export interface ForkOrigin {
  /** The original thread's key, as its owner names it. */
  threadId: string;
  /** The message the fork was made at. */
  atMessageId: string;
  /** `fork`: the thread up to and with the message; `edit`: before the user message, resent with new text; `regenerate`: before the assistant reply, asked again. */
  mode: ForkMode;
  /** The original's log was copied up to this seq. */
  throughSeq: number;
}

export type ForkMode = 'fork' | 'edit' | 'regenerate';

/** A tool call whose effect happened in the original thread, before the fork point. */
export interface InheritedEffect {
  toolCallId: string;
  toolName: string;
}

/** A tool call that ran in the original thread after the fork point: not in the fork, but it happened. */
export interface DroppedEffect extends InheritedEffect {
  input: unknown;
  output: unknown;
}

/**
 * Token counts of model calls (docs/internals/architecture.md, "Usage"), as the AI SDK reports them:
 * reasoning tokens are part of the output and cached input part of the input, never additions
 * to them. A count the provider did not report is absent, not 0.
 */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** Which model a step ran on: the provider as resolved (`openai`, `anthropic`, `gateway`, `scripted`, or a model object's own) and its id. */
export interface ModelLabel {
  provider: string;
  id: string;
}

/**
 * What a model step streamed: reasoning, text and tool-call parts, as the client saw them. A
 * reasoning part's end carries its provider metadata, so a client that keeps an opaque value
 * (AG-UI's REASONING_ENCRYPTED_VALUE, Anthropic's signature) gets it live and on a replay alike.
 */
export type StreamedPart =
  | { type: 'reasoning-start'; messageId: string }
  | { type: 'reasoning-delta'; messageId: string; delta: string }
  | { type: 'reasoning-end'; messageId: string; providerMetadata?: ProviderMetadata }
  | { type: 'text-start'; messageId: string }
  | { type: 'text-delta'; messageId: string; delta: string }
  | { type: 'text-end'; messageId: string }
  | { type: 'tool-call-start'; toolCallId: string; toolName: string; parentMessageId: string }
  | { type: 'tool-call-delta'; toolCallId: string; delta: string }
  | { type: 'tool-call-end'; toolCallId: string };

/**
 * What a conversation's older turns are sent as, once it outgrew its agent's context budget
 * (docs/models.md, "Long threads"). The log keeps every message: this changes only what the
 * model is sent from here on.
 */
export interface ContextCompaction {
  /** The last message it stands for: it and every message before it are sent as the summary (or trimmed). */
  throughMessageId: string;
  /** `summary`: a model call summarised them; `trim`: that call failed, and their bulky tool results were cut to a note. */
  method: 'summary' | 'trim';
  /** What the model is sent in their place (the summary), or what the trim did. */
  summary: string;
  /** The conversation's size before and after, in tokens (reported by the provider, or estimated: docs/models.md, "Long threads"). */
  tokensBefore: number;
  tokensAfter: number;
  /** What the summary call cost, and on which model. */
  usage?: TokenUsage;
  model?: ModelLabel;
}

export type RunOutcome = { type: 'success'; pendingToolCallIds?: string[] } | { type: 'interrupt'; interruptIds: string[] } | { type: 'cancelled' };

/**
 * Events that carry a `scope` belong to a delegated task's own conversation (`task:<the
 * delegate_task call id>`): a subagent's messages live in the same log, so its pauses and
 * crashes resume exactly like the root thread's. Events without one are the root thread.
 */
export type SessionEvent =
  /** A run took the session. Written together with the run's new input. */
  /** `inputs`: how many events after it were appended with it (the run's decisions and input). */
  | {
      type: 'run_started';
      runId: string;
      parentRunId?: string;
      source: RunSource;
      inputs?: number;
      /** A retry of the last run, which failed: its failed step's partial output leaves the conversation (docs/turn-control.md). */
      retry?: { retryId: string; attempt: number };
      /** The model the turn runs on, one of the agent's `models` (docs/models.md, "Choosing a model"); absent in logs from before. */
      model?: string;
    }
  /** Input accepted from a client: a user message, or the result of a frontend tool. */
  | { type: 'message_added'; message: ChatMessage; scope?: string }
  /** One model step, coalesced: its whole text and tool calls are one event, not one per token. */
  /**
   * `stream`: how the step streamed, in order, so that a client re-joining the run from the log
   * gets the same parts under the same cursors as the live stream (docs/internals/architecture.md).
   * Still one row per step: the deltas ride inside it.
   */
  | {
      type: 'assistant_step';
      message: AssistantMessage;
      finishReason: string;
      /** What the step's model call cost, as the provider reported it. */
      usage?: TokenUsage;
      model?: ModelLabel;
      scope?: string;
      stream?: StreamedPart[];
      /** Written by the server, not a model: the call undoes the dropped effect of this call (docs/time-travel.md). */
      undoOf?: string;
      /**
       * The idempotency key the undo call runs under: made from the dropped call where it ran (its
       * session and id), so every fork that undoes that effect undoes it under one key (docs/time-travel.md).
       */
      undoKey?: string;
    }
  /** A backend tool is about to run; a crash after this and before tool_result means run it again (attempt + 1). */
  /** `grantId`: the call runs without a pause inside this grant (docs/approvals.md, "Scoped grants"). */
  | { type: 'tool_started'; toolCallId: string; toolName: string; attempt: number; grantId?: string }
  /**
   * A preliminary output of a running tool (its execute is an async iterable): kept for the
   * audit trail and streamed to clients; the model reads only the final result.
   */
  | { type: 'tool_progress'; toolCallId: string; toolName: string; output: unknown; scope?: string }
  /**
   * status: the call did not run because a person denied it, or was cancelled — withdrawn by a
   * decision, or cut by a stop (never started, or did not finish; docs/hitl.md, "Stopping a run").
   */
  | { type: 'tool_result'; message: ToolMessage; output: unknown; status?: 'denied' | 'cancelled'; scope?: string }
  /** Shared state changed (RFC 6902, applies to the state before it). */
  | { type: 'state_patched'; patch: Operation[] }
  /** The run pauses: these tool calls wait for a human decision. */
  | { type: 'interrupts_opened'; interrupts: InterruptRecord[] }
  /** A decision on one interrupt. The log's compare-and-set makes it the only one. */
  | { type: 'interrupt_decided'; interruptId: string; decision: Decision }
  /** A vote that did not reach the interrupt's quorum; the one that does is its interrupt_decided. */
  | { type: 'interrupt_voted'; interruptId: string; vote: Vote }
  /**
   * Nobody decided in time and the tool escalates: the interrupt waits until `expiresAt` (its new
   * expiry), and `to` are told. `level` counts from 1 (docs/approvals.md).
   */
  | {
      type: 'interrupt_escalated';
      interruptId: string;
      level: number;
      expiresAt: string;
      to: string[];
      /** The request as it now stands (its new expiry), for the notice that tells `to` what waits; absent in older logs. */
      interrupt?: InterruptRecord;
    }
  /** The reminder before expiry is due: recorded once, and told by the notice channels ('interrupt.reminder'). */
  | {
      type: 'interrupt_reminded';
      interruptId: string;
      /** The request that waits, for the reminder's notice; absent in older logs. */ interrupt?: InterruptRecord;
    }
  /** An approval came with a grant: later calls inside it run without a pause. */
  | { type: 'grant_added'; grant: Grant }
  /** A grant no longer applies. */
  | { type: 'grant_revoked'; grantId: string; by: DecisionActor }
  /**
   * The events before this one were copied from another thread's log, up to a message
   * (docs/time-travel.md): the tool effects among them happened there, once, and are never run
   * again here. Interrupts still open at that point were opened afresh after this event.
   */
  | {
      type: 'thread_forked';
      from: ForkOrigin;
      inherited: InheritedEffect[];
      /** Effects the original made after the fork point: they happened, and the fork may offer to undo them. */
      dropped?: DroppedEffect[];
    }
  /** Older turns are sent compacted from here on; nothing is removed from the log (docs/models.md, "Long threads"). */
  | { type: 'context_compacted'; compaction: ContextCompaction; scope?: string }
  /** Delegation to a subagent brackets its work. */
  | { type: 'step_started'; stepName: string }
  | { type: 'step_finished'; stepName: string }
  /** `stop`: the persisted stop that ended the run early. */
  | { type: 'run_finished'; runId: string; outcome: RunOutcome; stop?: { frontier: string | null; by: { source: string; ownerId?: string } } }
  /** `details`: what a client may act on (model_error: the log's reference, and whether a Retry may go through). */
  | { type: 'run_failed'; runId: string; code: RunFailureCode; message: string; details?: RunFailureDetails };

/** A failed model call, as a client may know it (docs/errors.md, "A run that started, and failed"). */
export type RunFailureDetails = {
  /** Names the failure in the server's log. */
  reference: string;
  /** The provider called it passing (busy, rate-limited, failing, unreachable): a Retry may go through. */
  retryable: boolean;
};

/** An event as read back from the store. */
export interface StoredEvent {
  seq: number;
  /** ISO timestamp of the append. */
  at: string;
  event: SessionEvent;
}
