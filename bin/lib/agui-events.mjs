// Reading one AG-UI run's events: how it ended (RUN_FINISHED and its outcome, or RUN_ERROR), the
// interrupts it paused on, the tool results it carried, and the conversation a client holds after
// it (MESSAGES_SNAPSHOT replaces the list, TOOL_CALL_RESULT adds a tool message). The interrupt
// lifecycle is AG-UI's (docs/conformance.md, docs/hitl.md "The interrupt").
import { getRunOutcome } from '@ag-ui/client';
import { EventType } from '@ag-ui/core';

/**
 * @typedef {import('@ag-ui/core').BaseEvent} BaseEvent
 * @typedef {import('@ag-ui/core').Interrupt} Interrupt
 * @typedef {{ id: string, role: string, content?: unknown, toolCallId?: string, toolCalls?: { id: string, function?: { name?: string } }[] }} ThreadMessage
 */

/** The run's RUN_FINISHED, if it finished. @param {BaseEvent[]} events */
function runFinished(events) {
  return /** @type {import('@ag-ui/core').RunFinishedEvent | undefined} */ (events.findLast((event) => event.type === EventType.RUN_FINISHED));
}

/** The run's RUN_ERROR, if it failed or was refused. @param {BaseEvent[]} events */
export function runError(events) {
  return /** @type {import('@ag-ui/core').RunErrorEvent | undefined} */ (events.find((event) => event.type === EventType.RUN_ERROR));
}

/**
 * How the run finished: its outcome's type, with an omitted outcome read as `success` (AG-UI's
 * rule for producers that predate interrupts); undefined when it did not finish.
 * @param {BaseEvent[]} events
 * @returns {string | undefined}
 */
export function outcomeType(events) {
  const finished = runFinished(events);
  if (!finished) return undefined;
  return getRunOutcome(finished)?.type ?? 'success';
}

/** The interrupts the run paused on (none unless it finished with an interrupt outcome). @param {BaseEvent[]} events */
export function interruptsOf(events) {
  const finished = runFinished(events);
  const outcome = finished && getRunOutcome(finished);
  return outcome?.type === 'interrupt' ? /** @type {Interrupt[]} */ (outcome.interrupts ?? []) : [];
}

/** The TOOL_CALL_RESULT events for a call. @param {BaseEvent[]} events @param {string} toolCallId */
export function toolResultEvents(events, toolCallId) {
  return /** @type {import('@ag-ui/core').ToolCallResultEvent[]} */ (
    events.filter((event) => event.type === EventType.TOOL_CALL_RESULT && /** @type {{ toolCallId?: string }} */ (event).toolCallId === toolCallId)
  );
}

/** The run's last MESSAGES_SNAPSHOT's messages, if it sent one. @param {BaseEvent[]} events */
export function lastSnapshot(events) {
  const snapshot = events.findLast((event) => event.type === EventType.MESSAGES_SNAPSHOT);
  return snapshot ? /** @type {import('@ag-ui/core').MessagesSnapshotEvent} */ (snapshot).messages : undefined;
}

/**
 * The conversation a client holds once the run's events are applied, from `before`: a
 * MESSAGES_SNAPSHOT replaces it, a TOOL_CALL_RESULT adds a tool message (or replaces the one
 * with its messageId).
 * @param {BaseEvent[]} events
 * @param {ThreadMessage[]} [before]
 * @returns {ThreadMessage[]}
 */
export function threadAfter(events, before = []) {
  let messages = [...before];
  for (const event of events) {
    if (event.type === EventType.MESSAGES_SNAPSHOT) messages = [.../** @type {import('@ag-ui/core').MessagesSnapshotEvent} */ (event).messages];
    if (event.type === EventType.TOOL_CALL_RESULT) {
      const result = /** @type {import('@ag-ui/core').ToolCallResultEvent} */ (event);
      const message = { id: result.messageId, role: 'tool', toolCallId: result.toolCallId, content: result.content };
      const at = messages.findIndex((known) => known.id === result.messageId);
      if (at >= 0) messages[at] = message;
      else messages.push(message);
    }
  }
  return messages;
}

/** The tool messages answering a call. @param {ThreadMessage[]} messages @param {string} toolCallId */
export function toolMessagesFor(messages, toolCallId) {
  return messages.filter((message) => message.role === 'tool' && message.toolCallId === toolCallId);
}

/** Whether an assistant message of the conversation made the call. @param {ThreadMessage[]} messages @param {string} toolCallId */
export function hasToolCall(messages, toolCallId) {
  return messages.some((message) => message.role === 'assistant' && (message.toolCalls ?? []).some((call) => call.id === toolCallId));
}

/** A message's content as text (a string, or the text of its parts). @param {unknown} content */
export function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return content === undefined ? '' : JSON.stringify(content);
}

/**
 * The run for a report: its event types in order, repeats folded (`TEXT_MESSAGE_CONTENT×7`),
 * RUN_FINISHED with its outcome and RUN_ERROR with its code.
 * @param {BaseEvent[]} events
 * @returns {string[]}
 */
export function eventLabels(events) {
  /** @type {{ label: string, count: number }[]} */
  const parts = [];
  for (const event of events) {
    let label = String(event.type);
    if (event.type === EventType.RUN_FINISHED) label += `(${outcomeType([event])})`;
    if (event.type === EventType.RUN_ERROR) label += `(${/** @type {{ code?: string }} */ (event).code ?? 'no code'})`;
    const last = parts.at(-1);
    if (last?.label === label) last.count += 1;
    else parts.push({ label, count: 1 });
  }
  return parts.map(({ label, count }) => (count > 1 ? `${label}×${count}` : label));
}
