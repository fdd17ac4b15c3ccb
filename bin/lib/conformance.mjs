// `stackbone conformance <agent-url>`: drives any AG-UI endpoint as a client through a
// human-in-the-loop round trip and reports, check by check, whether it keeps AG-UI's interrupt
// lifecycle (docs/conformance.md). Every request and what came back is kept with its check, so a
// failure shows the run that failed it.
import { eventLabels } from './agui-events.mjs';
import { exchange } from './agui-exchange.mjs';
import { CHECKS } from './conformance-checks.mjs';
import { fail } from './conformance-verdict.mjs';

/**
 * @typedef {import('./conformance-verdict.mjs').ConformanceOptions} ConformanceOptions
 * @typedef {import('./conformance-verdict.mjs').Findings} Findings
 * @typedef {{
 *   purpose: string,
 *   threadId: string,
 *   runId: string,
 *   httpStatus: number | null,
 *   events: string[],
 *   failure: import('./agui-exchange.mjs').ExchangeFailure | null,
 * }} RunRecord
 * @typedef {{
 *   id: string,
 *   title: string,
 *   status: 'pass' | 'fail' | 'skip',
 *   detail: string,
 *   ms: number,
 *   runs: RunRecord[],
 * }} CheckResult
 * @typedef {{
 *   agentUrl: string,
 *   prompt: string,
 *   ok: boolean,
 *   passed: number,
 *   failed: number,
 *   skipped: number,
 *   checks: CheckResult[],
 * }} ConformanceReport
 */

/**
 * Runs every check in order against `options.target.url`.
 * @param {ConformanceOptions} options
 * @param {{ onResult?: (result: CheckResult, index: number) => void }} [hooks] called as each check ends
 * @returns {Promise<ConformanceReport>}
 */
export async function runConformance(options, hooks = {}) {
  /** @type {Findings} */
  const findings = {};
  /** @type {CheckResult[]} */
  const results = [];
  for (const check of CHECKS) {
    const missing = check.needs.filter((id) => results.find((result) => result.id === id)?.status !== 'pass');
    /** @type {RunRecord[]} */
    const runs = [];
    const started = Date.now();
    let verdict;
    if (missing.length) {
      verdict = { status: /** @type {const} */ ('skip'), detail: `Not run: it needs ${missing.map((id) => `"${id}"`).join(' and ')} to pass first.` };
    } else {
      /** @type {import('./conformance-verdict.mjs').Probe} */
      const probe = {
        async send(purpose, input, headers) {
          const answer = await exchange(options.target, input, { headers });
          runs.push({
            purpose,
            threadId: input.threadId,
            runId: input.runId,
            httpStatus: answer.status,
            events: eventLabels(answer.events),
            failure: answer.failure,
          });
          return answer;
        },
      };
      try {
        verdict = await check.run(probe, findings, options);
      } catch (error) {
        verdict = fail(`The check itself failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const result = { id: check.id, title: check.title, ...verdict, ms: Date.now() - started, runs };
    results.push(result);
    hooks.onResult?.(result, results.length - 1);
  }
  const count = (/** @type {string} */ status) => results.filter((result) => result.status === status).length;
  return {
    agentUrl: options.target.url,
    prompt: options.prompt,
    ok: results.every((result) => result.status === 'pass'),
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    checks: results,
  };
}
