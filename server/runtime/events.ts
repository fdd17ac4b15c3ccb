// The event vocabulary of a durable session: the spine of the runtime.
// A session is an append-only log of these; every view a client sees (messages, shared
// state, pending interrupts, run status) is a pure fold of them (see reduce.ts).
// Events are wire-neutral: wires translate them, never the other way round.
import type { Operation } from 'fast-json-patch';

export type JsonObject = Record<string, unknown>;

export interface ToolCall {
  /** The model's tool call id; also the idempotency key handed to the tool. */
  id: string;
  name: string;
  input: unknown;
}

export type ChatMessage =
  | { id: string; role: 'user'; content: string }
  | { id: string; role: 'system' | 'developer'; content: string }
  | { id: string; role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { id: string; role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
export type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** Where an input came from; recorded on run_started for the audit trail. */
export type RunSource = 'agui' | 'openai' | 'anthropic' | 'hitl' | 'server';

export type RunOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'interrupt'; interruptIds: string[] }
  | { type: 'cancelled' };

export type SessionEvent =
  /** A run took the session. Written together with the run's new input. */
  | { type: 'run_started'; runId: string; parentRunId?: string; source: RunSource }
  /** Input accepted from a client: a user message, or the result of a frontend tool. */
  | { type: 'message_added'; message: ChatMessage }
  /** One model step, coalesced: its whole text and tool calls are one event, not one per token. */
  | { type: 'assistant_step'; message: AssistantMessage; finishReason: string; usage?: { inputTokens?: number; outputTokens?: number } }
  /** A backend tool is about to run; a crash after this and before tool_result means run it again (attempt + 1). */
  | { type: 'tool_started'; toolCallId: string; toolName: string; attempt: number }
  | { type: 'tool_result'; message: ToolMessage; output: unknown }
  /** Shared state changed (RFC 6902, applies to the state before it). */
  | { type: 'state_patched'; patch: Operation[] }
  /** Delegation to a subagent brackets its work. */
  | { type: 'step_started'; stepName: string }
  | { type: 'step_finished'; stepName: string }
  | { type: 'run_finished'; runId: string; outcome: RunOutcome }
  | { type: 'run_failed'; runId: string; code: string; message: string };

export type SessionEventType = SessionEvent['type'];

/** An event as read back from the store. */
export interface StoredEvent {
  seq: number;
  /** ISO timestamp of the append. */
  at: string;
  event: SessionEvent;
}
