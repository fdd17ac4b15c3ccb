// What a paused thread refuses, and how (docs/conformance.md, checks "message-while-paused" and
// "unknown-interrupt"): a new message, and a resume naming an interrupt the thread does not have,
// are each answered with a RUN_ERROR on the event stream — the only place an AG-UI client looks —
// never a bare HTTP status, and neither runs the paused call.
import { randomUUID } from 'node:crypto';
import { outcomeType, runError } from './agui-events.mjs';
import { messageInput, resumeInput } from './agui-inputs.mjs';
import { callsWithResults, fail, pass } from './conformance-verdict.mjs';

/**
 * @typedef {import('./conformance-verdict.mjs').Probe} Probe
 * @typedef {import('./conformance-verdict.mjs').Findings} Findings
 * @typedef {import('./conformance-verdict.mjs').ConformanceOptions} ConformanceOptions
 * @typedef {import('./conformance-verdict.mjs').PausedThread} PausedThread
 * @typedef {import('./conformance-verdict.mjs').Verdict} Verdict
 * @typedef {import('./agui-exchange.mjs').Exchange} Exchange
 */

/**
 * The verdict on a request the paused thread must refuse on the stream.
 * @param {Exchange} run @param {PausedThread} paused @param {string} what the request, for the detail
 * @returns {Verdict}
 */
function refusedOnStream(run, paused, what) {
  if (run.failure?.kind === 'http') {
    return fail(
      `${what}: the server ${run.failure.message}, a bare status. An AG-UI client reads the event stream, so the refusal must be a RUN_ERROR event on it.`,
    );
  }
  if (run.failure) return fail(`${what}: ${run.failure.message}.`);
  const ran = callsWithResults(paused.interrupts, run.events);
  if (ran.length) return fail(`${what} ran the paused call without a decision (a result for ${ran.join(', ')}).`);
  const error = runError(run.events);
  if (!error) {
    const outcome = outcomeType(run.events);
    return fail(
      `${what} was not refused: ${outcome ? `the run finished with outcome "${outcome}"` : 'the run ended without RUN_FINISHED or RUN_ERROR'}, and no RUN_ERROR.`,
    );
  }
  return pass(`RUN_ERROR${error.code ? ` ${error.code}` : ' (no code)'}: "${error.message}".`);
}

/**
 * Check "message-while-paused": a new user message on the paused thread is a RUN_ERROR.
 * @param {Probe} probe @param {Findings} findings
 * @returns {Promise<Verdict>}
 */
export async function checkMessageWhilePaused(probe, findings) {
  const paused = /** @type {PausedThread} */ (findings.paused);
  const run = await probe.send('a new message', messageInput(paused.threadId, 'Conformance check: a new message while a decision is pending.'));
  return refusedOnStream(run, paused, 'A new message on the paused thread');
}

/**
 * Check "unknown-interrupt": a resume naming an interrupt id the thread never had is a RUN_ERROR.
 * (An expired one is refused the same way; a client cannot make one expire, so the unknown id
 * stands for both.)
 * @param {Probe} probe @param {Findings} findings @param {ConformanceOptions} options
 * @returns {Promise<Verdict>}
 */
export async function checkUnknownInterrupt(probe, findings, options) {
  const paused = /** @type {PausedThread} */ (findings.paused);
  const interruptId = `int_unknown_${randomUUID()}`;
  const run = await probe.send(
    'a resume for an unknown interrupt',
    resumeInput(paused.threadId, [{ interruptId, status: 'resolved', payload: options.approvePayload }]),
  );
  return refusedOnStream(run, paused, `A resume for the unknown interrupt ${interruptId}`);
}
