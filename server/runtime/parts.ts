// The live stream of a run, as the runtime produces it. Wires translate these parts into
// their own events (AG-UI, OpenAI chunks, Anthropic stream events); the durable truth is
// the event log, and every part here is either derived from an event just appended or a
// transient delta (text and tool-argument streaming) whose coalesced form is appended.
import type { Operation } from 'fast-json-patch';
import type { ChatMessage, InterruptRecord, JsonObject, RunOutcome } from './events';

export type RunPart =
  | { type: 'run-started'; threadId: string; runId: string; parentRunId?: string }
  | { type: 'messages-snapshot'; messages: ChatMessage[] }
  | { type: 'state-snapshot'; state: JsonObject }
  | { type: 'text-start'; messageId: string }
  | { type: 'text-delta'; messageId: string; delta: string }
  | { type: 'text-end'; messageId: string }
  | { type: 'tool-call-start'; toolCallId: string; toolName: string; parentMessageId: string }
  | { type: 'tool-call-delta'; toolCallId: string; delta: string }
  | { type: 'tool-call-end'; toolCallId: string }
  | { type: 'tool-result'; messageId: string; toolCallId: string; toolName: string; content: string; isError?: boolean }
  | { type: 'state-delta'; patch: Operation[] }
  | { type: 'step-started'; stepName: string }
  | { type: 'step-finished'; stepName: string }
  /** With outcome 'interrupt', `interrupts` are the records the outcome names. */
  | { type: 'run-finished'; outcome: RunOutcome; interrupts?: InterruptRecord[] }
  | { type: 'run-error'; code: string; message: string };
