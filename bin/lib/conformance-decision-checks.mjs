// Deciding a pause (docs/conformance.md, checks "approve", "resume-replay" and "reject"): an
// approval resumes the run and the tool's result appears exactly once; the same resume sent again
// runs nothing; a rejection, on a thread of its own, finishes the run without running the tool
// and answers the call with a result that says so — what the model reads.
import { contentText, interruptsOf, outcomeType, threadAfter, toolMessagesFor, toolResultEvents } from './agui-events.mjs';
import { resumeInput } from './agui-inputs.mjs';
import { pauseOnPrompt } from './conformance-pause-checks.mjs';
import { callName, capitalize, excerpt, fail, interruptsDiffer, pass, REJECTION_WORDS, whyRefused } from './conformance-verdict.mjs';

/**
 * @typedef {import('@ag-ui/core').Interrupt} Interrupt
 * @typedef {import('@ag-ui/core').ResumeEntry} ResumeEntry
 * @typedef {import('./conformance-verdict.mjs').Probe} Probe
 * @typedef {import('./conformance-verdict.mjs').Findings} Findings
 * @typedef {import('./conformance-verdict.mjs').ConformanceOptions} ConformanceOptions
 * @typedef {import('./conformance-verdict.mjs').PausedThread} PausedThread
 * @typedef {import('./conformance-verdict.mjs').Verdict} Verdict
 * @typedef {import('./agui-exchange.mjs').Exchange} Exchange
 * @typedef {import('./agui-events.mjs').ThreadMessage} ThreadMessage
 */

/** One resume entry per interrupt, each answered with `payload`. @param {Interrupt[]} interrupts @param {unknown} payload @returns {ResumeEntry[]} */
function answerAll(interrupts, payload) {
  return interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved', payload }));
}

/**
 * What is wrong with how a decided run ended, or null: it must not be refused, must finish, and
 * must not pause again on the interrupts just answered.
 * @param {Exchange} run @param {PausedThread} paused @param {string} decision "approval" / "rejection"
 */
function endProblem(run, paused, decision) {
  const refused = whyRefused(run);
  if (refused) return `the ${decision} was refused: ${refused}`;
  const outcome = outcomeType(run.events);
  if (!outcome) return `the run never finished after the ${decision} (no RUN_FINISHED)`;
  if (outcome === 'interrupt' && !interruptsDiffer(paused.interrupts, interruptsOf(run.events)))
    return `the run paused again on the same interrupts: the ${decision} was not applied`;
  return null;
}

/**
 * The one result of each paused call in `thread`, or what is wrong: none, or more than one.
 * @param {Exchange} run @param {PausedThread} paused @param {ThreadMessage[]} thread
 * @returns {{ results: { interrupt: Interrupt, name: string, text: string }[] } | { problem: string }}
 */
function oneResultEach(run, paused, thread) {
  const results = [];
  for (const interrupt of paused.interrupts) {
    const id = interrupt.toolCallId;
    if (!id) continue;
    const name = `${callName(paused.run.events, interrupt)} (${id})`;
    const events = toolResultEvents(run.events, id).length;
    if (events > 1) return { problem: `${events} TOOL_CALL_RESULT events for ${name}: its result appears more than once` };
    const messages = toolMessagesFor(thread, id);
    if (messages.length === 0) return { problem: `no result for ${name}: neither a TOOL_CALL_RESULT nor a tool message in a MESSAGES_SNAPSHOT` };
    if (messages.length > 1) return { problem: `the conversation holds ${messages.length} results for ${name}: its result appears more than once` };
    results.push({ interrupt, name, text: contentText(messages[0].content) });
  }
  return { results };
}

/**
 * Check "approve": approving every interrupt resumes the run; each paused call's result appears
 * exactly once and is not a rejection.
 * @param {Probe} probe @param {Findings} findings @param {ConformanceOptions} options
 * @returns {Promise<Verdict>}
 */
export async function checkApprove(probe, findings, options) {
  const paused = /** @type {PausedThread} */ (findings.paused);
  const resume = answerAll(paused.interrupts, options.approvePayload);
  const run = await probe.send('approve', resumeInput(paused.threadId, resume, paused.input.runId));
  const ended = endProblem(run, paused, 'approval');
  if (ended) return fail(`${capitalize(ended)}.`);
  const before = threadAfter(paused.run.events);
  const thread = threadAfter(run.events, before);
  const found = oneResultEach(run, paused, thread);
  if ('problem' in found) return fail(`${capitalize(found.problem)}.`);
  const denied = found.results.find((result) => REJECTION_WORDS.test(result.text));
  if (denied) return fail(`The approved call ${denied.name} was answered as if rejected: "${excerpt(denied.text)}".`);
  findings.approved = { resume, thread };
  if (found.results.length === 0)
    return pass(`The run finished (outcome "${outcomeType(run.events)}"); no interrupt names a toolCallId, so no tool result was looked for.`);
  return pass(
    `The run finished (outcome "${outcomeType(run.events)}"); ${found.results.map((result) => `${result.name} has one result: "${excerpt(result.text)}"`).join('; ')}.`,
  );
}

/**
 * Check "resume-replay": the approval's resume sent again (a fresh runId, as a client unsure its
 * first one arrived sends it) runs nothing: refused with RUN_ERROR, or answered with no new result.
 * @param {Probe} probe @param {Findings} findings
 * @returns {Promise<Verdict>}
 */
export async function checkResumeReplay(probe, findings) {
  const paused = /** @type {PausedThread} */ (findings.paused);
  const approved = /** @type {NonNullable<Findings['approved']>} */ (findings.approved);
  const run = await probe.send('the same resume again', resumeInput(paused.threadId, approved.resume, paused.input.runId));
  if (run.failure?.kind === 'http') {
    return fail(
      `The server ${run.failure.message}, a bare status: an AG-UI client reads the event stream, so a resume it will not apply again is answered there (a RUN_ERROR, or a run that adds nothing).`,
    );
  }
  if (run.failure) return fail(`The resent resume: ${run.failure.message}.`);
  const again = paused.interrupts.flatMap((interrupt) => (interrupt.toolCallId ? toolResultEvents(run.events, interrupt.toolCallId) : []));
  if (again.length) return fail(`The tool ran again: the resent resume's run has a TOOL_CALL_RESULT for ${again.map((event) => event.toolCallId).join(', ')}.`);
  const refused = whyRefused(run);
  if (refused) return pass(`Refused, nothing ran: ${refused}.`);
  const outcome = outcomeType(run.events);
  if (!outcome) return fail("The resent resume's run never finished (no RUN_FINISHED or RUN_ERROR).");
  const found = oneResultEach(run, paused, threadAfter(run.events, approved.thread));
  if ('problem' in found) return fail(`After the resent resume, ${found.problem}.`);
  return pass(`Answered without running anything (outcome "${outcome}", no TOOL_CALL_RESULT); the conversation still holds one result per call.`);
}

/**
 * Check "reject": on a fresh thread, the prompt pauses again; rejecting it finishes the run, the
 * tool never runs, and the call's result says it was rejected.
 * @param {Probe} probe @param {Findings} _findings @param {ConformanceOptions} options
 * @returns {Promise<Verdict>}
 */
export async function checkReject(probe, _findings, options) {
  const result = await pauseOnPrompt(probe, options, 'the prompt (fresh thread)');
  if ('problem' in result) return fail(`On a fresh thread, ${result.problem}.`);
  const { paused } = result;
  const run = await probe.send('reject', resumeInput(paused.threadId, answerAll(paused.interrupts, options.rejectPayload), paused.input.runId));
  const ended = endProblem(run, paused, 'rejection');
  if (ended) return fail(`${capitalize(ended)}.`);
  const found = oneResultEach(run, paused, threadAfter(run.events, threadAfter(paused.run.events)));
  if ('problem' in found) {
    return fail(`The rejection is not visible to the model as the call's result: ${found.problem}.`);
  }
  const ran = found.results.find((entry) => !REJECTION_WORDS.test(entry.text));
  if (ran) return fail(`The result of the rejected call ${ran.name} does not say it was rejected (did the tool run?): "${excerpt(ran.text)}".`);
  if (found.results.length === 0)
    return pass(`The run finished (outcome "${outcomeType(run.events)}"); no interrupt names a toolCallId, so no tool result was looked for.`);
  return pass(
    `The run finished (outcome "${outcomeType(run.events)}"); ${found.results.map((entry) => `${entry.name} was answered "${excerpt(entry.text)}"`).join('; ')}.`,
  );
}
