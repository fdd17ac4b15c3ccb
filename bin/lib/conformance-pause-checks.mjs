// The pause and what a reconnecting client sees of it (docs/conformance.md, checks "interrupt"
// and "reconnect"): the prompt must end its run with an interrupt outcome before the gated tool
// runs, and reopening the thread must show that same pending interrupt, every time.
import { hasToolCall, interruptsOf, lastSnapshot, outcomeType, runError } from './agui-events.mjs';
import { messageInput, newThreadId, reopenInput } from './agui-inputs.mjs';
import { callsWithResults, capitalize, describeInterrupts, fail, interruptsDiffer, pass, whyRefused } from './conformance-verdict.mjs';
import { EventType } from '@ag-ui/core';

/**
 * @typedef {import('./conformance-verdict.mjs').Probe} Probe
 * @typedef {import('./conformance-verdict.mjs').Findings} Findings
 * @typedef {import('./conformance-verdict.mjs').ConformanceOptions} ConformanceOptions
 * @typedef {import('./conformance-verdict.mjs').PausedThread} PausedThread
 * @typedef {import('./conformance-verdict.mjs').Verdict} Verdict
 * @typedef {import('./agui-exchange.mjs').Exchange} Exchange
 */

/**
 * Sends the prompt on a fresh thread and reads how its run ends.
 * @param {Probe} probe @param {ConformanceOptions} options @param {string} purpose
 * @returns {Promise<{ paused: PausedThread } | { problem: string }>}
 */
export async function pauseOnPrompt(probe, options, purpose) {
  const threadId = newThreadId();
  const input = messageInput(threadId, options.prompt);
  const run = await probe.send(purpose, input);
  const refused = whyRefused(run);
  if (refused) return { problem: `the prompt's run: ${refused}` };
  const outcome = outcomeType(run.events);
  if (!outcome) return { problem: "the prompt's run never finished (no RUN_FINISHED)" };
  if (outcome !== 'interrupt') {
    const results = run.events.filter((event) => event.type === EventType.TOOL_CALL_RESULT);
    const ran = results.map((event) => /** @type {import('@ag-ui/core').ToolCallResultEvent} */ (event).toolCallId);
    return {
      problem: ran.length
        ? `the run finished with outcome "${outcome}", not "interrupt", and the tool ran without asking anyone (TOOL_CALL_RESULT for ${ran.join(', ')})`
        : `the run finished with outcome "${outcome}", not "interrupt": nothing was put to a person (does the prompt make the agent call a tool that needs approval?)`,
    };
  }
  const interrupts = interruptsOf(run.events);
  if (interrupts.length === 0) return { problem: 'the outcome is "interrupt" but lists no interrupts' };
  const malformed = interrupts.find((interrupt) => typeof interrupt.id !== 'string' || !interrupt.id || typeof interrupt.reason !== 'string');
  if (malformed) return { problem: `an interrupt lacks its id or reason: ${JSON.stringify(malformed)}` };
  const ran = callsWithResults(interrupts, run.events);
  if (ran.length) return { problem: `the run paused, but the paused call already has a result (${ran.join(', ')}): it ran before anyone decided` };
  return { paused: { threadId, input, run, interrupts } };
}

/**
 * Check "interrupt": the prompt ends its run with an interrupt outcome, the gated call not run.
 * @param {Probe} probe @param {Findings} findings @param {ConformanceOptions} options
 * @returns {Promise<Verdict>}
 */
export async function checkInterrupt(probe, findings, options) {
  const result = await pauseOnPrompt(probe, options, 'the prompt');
  if ('problem' in result) return fail(`${capitalize(result.problem)}.`);
  findings.paused = result.paused;
  return pass(`Paused: ${describeInterrupts(result.paused.interrupts, result.paused.run.events)}; the call did not run.`);
}

/** How a client reopens a thread: its label in a report. */
const PATH_LABEL = {
  reopen: 'reopen: a run with no new message',
  rejoin: 'rejoin: the paused run again with Last-Event-ID: -1',
};

/**
 * The request that reopens the paused thread along a path:
 * - reopen: a new run with no new message and no resume, as a client that reloaded sends; a
 *   server that restores threads answers with MESSAGES_SNAPSHOT and the pending interrupt again;
 * - rejoin: the paused run's own request again with `Last-Event-ID: -1`, which a server that
 *   keeps its runs' events answers by replaying the run (docs/internals/architecture.md,
 *   "Streams and cursors").
 * @param {'reopen' | 'rejoin'} path @param {PausedThread} paused
 * @returns {[import('@ag-ui/core').RunAgentInput, Record<string, string>]}
 */
function reconnectRequest(path, paused) {
  return path === 'reopen' ? [reopenInput(paused.threadId), {}] : [paused.input, { 'Last-Event-ID': '-1' }];
}

/**
 * What is wrong with a reconnect's answer, or null: it must restore the conversation
 * (MESSAGES_SNAPSHOT with the paused call, no result for it) and end with the same interrupts.
 * @param {Exchange} run @param {PausedThread} paused
 */
function reconnectProblem(run, paused) {
  const refused = whyRefused(run);
  if (refused) return refused;
  const snapshot = lastSnapshot(run.events);
  if (!snapshot) return 'no MESSAGES_SNAPSHOT: the conversation was not restored';
  const outcome = outcomeType(run.events);
  if (!outcome) return 'the run never finished (no RUN_FINISHED)';
  if (outcome !== 'interrupt') return `RUN_FINISHED with outcome "${outcome}": the pending interrupt is gone`;
  const differ = interruptsDiffer(paused.interrupts, interruptsOf(run.events));
  if (differ) return differ;
  for (const { toolCallId } of paused.interrupts) {
    if (toolCallId && !hasToolCall(snapshot, toolCallId)) return `the MESSAGES_SNAPSHOT does not hold the paused call ${toolCallId}`;
  }
  const ran = callsWithResults(paused.interrupts, run.events);
  if (ran.length) return `the paused call has a result now (${ran.join(', ')}), though nobody decided`;
  return null;
}

/**
 * Check "reconnect": reopening the thread shows the same pending interrupt, twice in a row.
 * With `--reconnect auto` the reopen path comes first; a refusal of it (RUN_ERROR, an HTTP
 * error) moves on to the rejoin path, and the second reconnect takes the path the first one did.
 * @param {Probe} probe @param {Findings} findings @param {ConformanceOptions} options
 * @returns {Promise<Verdict>}
 */
export async function checkReconnect(probe, findings, options) {
  const paused = /** @type {PausedThread} */ (findings.paused);
  /** @type {('reopen' | 'rejoin')[]} */
  const paths = options.reconnect === 'auto' ? ['reopen', 'rejoin'] : [options.reconnect];
  /** @type {string[]} */
  const refusals = [];
  for (const [index, path] of paths.entries()) {
    const first = await probe.send(`reconnect 1 (${path})`, ...reconnectRequest(path, paused));
    const last = index === paths.length - 1;
    // Refused (not answered wrongly): the next path may be this server's.
    const refused = first.failure ? first.failure.kind === 'http' || first.failure.kind === 'not-a-stream' : runError(first.events) !== undefined;
    if (!last && refused) {
      refusals.push(`${path} was refused (${whyRefused(first)})`);
      continue;
    }
    const tried = refusals.length ? ` Before that, ${refusals.join('; ')}.` : '';
    const problem = reconnectProblem(first, paused);
    if (problem) return fail(`Reconnect 1 (${PATH_LABEL[path]}): ${problem}.${tried}`);
    const second = await probe.send(`reconnect 2 (${path})`, ...reconnectRequest(path, paused));
    const again = reconnectProblem(second, paused);
    if (again) return fail(`Reconnect 2 (${PATH_LABEL[path]}), after a first one that showed the interrupt: ${again}.${tried}`);
    const ids = paused.interrupts.map((interrupt) => interrupt.id).join(', ');
    return pass(`Twice (${PATH_LABEL[path]}): MESSAGES_SNAPSHOT with the paused call, then RUN_FINISHED with interrupt ${ids}.${tried}`);
  }
  return fail(`No way of reopening the thread showed the interrupt: ${refusals.join('; ')}.`);
}
