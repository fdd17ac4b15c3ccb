// The RunAgentInput bodies the conformance kit sends (docs/conformance.md): a prompt on a thread,
// a run with no new message (reopening the thread), a resume, each with fresh ids.
import { randomUUID } from 'node:crypto';
import { PROTOCOL_VERSION } from '@ag-ui/core';

/**
 * @typedef {import('@ag-ui/core').RunAgentInput} RunAgentInput
 * @typedef {import('@ag-ui/core').ResumeEntry} ResumeEntry
 */

/** A thread id of the kit's own, so its threads are easy to find in a server's log. */
export function newThreadId() {
  return `conformance-${randomUUID()}`;
}

/**
 * A run on the thread: the fields every AG-UI request carries, empty unless given.
 * @param {string} threadId
 * @param {Partial<RunAgentInput>} [fields]
 * @returns {RunAgentInput}
 */
function runInput(threadId, fields = {}) {
  return {
    threadId,
    runId: randomUUID(),
    protocolVersion: PROTOCOL_VERSION,
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...fields,
  };
}

/** A run bringing one new user message. @param {string} threadId @param {string} text */
export function messageInput(threadId, text) {
  return runInput(threadId, { messages: [{ id: randomUUID(), role: 'user', content: text }] });
}

/** A run bringing nothing new: what a client sends to reopen a thread it has no copy of. @param {string} threadId */
export function reopenInput(threadId) {
  return runInput(threadId);
}

/**
 * A run answering interrupts: `resume`, and `parentRunId` = the run that paused when known.
 * @param {string} threadId @param {ResumeEntry[]} resume @param {string} [parentRunId]
 */
export function resumeInput(threadId, resume, parentRunId) {
  return runInput(threadId, { resume, ...(parentRunId ? { parentRunId } : {}) });
}
