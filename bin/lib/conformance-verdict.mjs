// What the conformance checks share: their verdicts, what they found out along the way (the
// paused thread, the approval), and the words of a run's story in a report (docs/conformance.md).
import { runError, threadAfter, toolMessagesFor, toolResultEvents } from './agui-events.mjs';
import { EventType } from '@ag-ui/core';

/**
 * @typedef {import('@ag-ui/core').BaseEvent} BaseEvent
 * @typedef {import('@ag-ui/core').Interrupt} Interrupt
 * @typedef {import('@ag-ui/core').RunAgentInput} RunAgentInput
 * @typedef {import('@ag-ui/core').ResumeEntry} ResumeEntry
 * @typedef {import('./agui-exchange.mjs').Exchange} Exchange
 * @typedef {import('./agui-exchange.mjs').Target} Target
 * @typedef {import('./agui-events.mjs').ThreadMessage} ThreadMessage
 * @typedef {{ status: 'pass' | 'fail', detail: string }} Verdict
 * @typedef {{ send(purpose: string, input: RunAgentInput, headers?: Record<string, string>): Promise<Exchange> }} Probe
 * @typedef {'auto' | 'reopen' | 'rejoin'} ReconnectPath
 * @typedef {{
 *   target: Target,
 *   prompt: string,
 *   reconnect: ReconnectPath,
 *   approvePayload: unknown,
 *   rejectPayload: unknown,
 * }} ConformanceOptions
 * @typedef {{ threadId: string, input: RunAgentInput, run: Exchange, interrupts: Interrupt[] }} PausedThread
 * @typedef {{ paused?: PausedThread, approved?: { resume: ResumeEntry[], thread: ThreadMessage[] } }} Findings
 */

/** @param {string} detail @returns {Verdict} */
export const pass = (detail) => ({ status: 'pass', detail });
/** @param {string} detail @returns {Verdict} */
export const fail = (detail) => ({ status: 'fail', detail });

/**
 * What a rejected call's result says, in the words servers use: "The user denied this call; it
 * did not run.", "Rejected by the user", "declined", "not approved"…
 */
export const REJECTION_WORDS = /\b(den(y|ied)|reject(ed|ion)?|declin(e|ed)|refus(e|ed|al)|not approved|disapproved|did not run|not (been )?run|cancel+ed)\b/i;

/** Why a run did not go through: its transport failure or its RUN_ERROR; null when neither. @param {Exchange} run */
export function whyRefused(run) {
  if (run.failure) return run.failure.message;
  const error = runError(run.events);
  if (error) return `RUN_ERROR ${error.code ?? '(no code)'}: ${String(error.message).replace(/\.$/, '')}`;
  return null;
}

/** @param {string} text @param {number} [max] */
export function excerpt(text, max = 140) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The tool an interrupt is about: from its TOOL_CALL_START, a snapshot's tool call, or its metadata.
 * @param {BaseEvent[]} events @param {Interrupt} interrupt
 */
export function callName(events, interrupt) {
  const id = interrupt.toolCallId;
  const start = events.find((event) => event.type === EventType.TOOL_CALL_START && /** @type {{ toolCallId?: string }} */ (event).toolCallId === id);
  if (start) return /** @type {import('@ag-ui/core').ToolCallStartEvent} */ (start).toolCallName;
  for (const message of threadAfter(events)) {
    const call = (message.toolCalls ?? []).find((candidate) => candidate.id === id);
    if (call?.function?.name) return call.function.name;
  }
  const named = /** @type {{ toolName?: unknown } | undefined} */ (interrupt.metadata)?.toolName;
  return typeof named === 'string' ? named : 'a call';
}

/** "refundOrder (call_1) as int_2 (reason tool_call)", for each. @param {Interrupt[]} interrupts @param {BaseEvent[]} events */
export function describeInterrupts(interrupts, events) {
  return interrupts
    .map((interrupt) => {
      const call = interrupt.toolCallId ? `${callName(events, interrupt)} (${interrupt.toolCallId})` : 'a request without a toolCallId';
      return `${call} as ${interrupt.id} (reason ${interrupt.reason})`;
    })
    .join('; ');
}

/**
 * The paused calls that have a result in this run: a TOOL_CALL_RESULT, or a tool message in
 * the conversation the run leaves (from `before`).
 * @param {Interrupt[]} interrupts @param {BaseEvent[]} events @param {ThreadMessage[]} [before]
 */
export function callsWithResults(interrupts, events, before = []) {
  const thread = threadAfter(events, before);
  return interrupts
    .map((interrupt) => interrupt.toolCallId)
    .filter((id) => id !== undefined)
    .filter((id) => toolResultEvents(events, id).length > 0 || toolMessagesFor(thread, id).length > 0);
}

/** The same interrupts (by id, each on the same call)? Says how they differ, or null. @param {Interrupt[]} expected @param {Interrupt[]} got */
export function interruptsDiffer(expected, got) {
  const ids = (/** @type {Interrupt[]} */ list) => list.map((interrupt) => interrupt.id).sort();
  if (ids(expected).join('\n') !== ids(got).join('\n')) {
    return `the interrupts are ${got.length ? ids(got).join(', ') : 'none'}, not ${ids(expected).join(', ')}`;
  }
  for (const interrupt of expected) {
    const other = got.find((candidate) => candidate.id === interrupt.id);
    if (other && other.toolCallId !== interrupt.toolCallId) return `interrupt ${interrupt.id} now names call ${other.toolCallId}, not ${interrupt.toolCallId}`;
  }
  return null;
}

/** @param {string} text */
export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
