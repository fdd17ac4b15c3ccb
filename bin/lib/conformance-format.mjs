// `stackbone conformance` for a person (docs/conformance.md): the target, a PASS / FAIL / SKIP
// line per check with what it saw, the runs behind a failure, and the count.

/**
 * @typedef {import('./conformance.mjs').CheckResult} CheckResult
 * @typedef {import('./conformance.mjs').ConformanceReport} ConformanceReport
 */

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' };
const ID_WIDTH = 22;

/** The lines before the first check. @param {{ agentUrl: string, prompt: string }} target */
export function formatConformanceHeader({ agentUrl, prompt }) {
  return `AG-UI human-in-the-loop conformance\n  agent   ${agentUrl}\n  prompt  ${JSON.stringify(prompt)}\n\n`;
}

/**
 * One check: its verdict line, the detail under it, and for a failure every run it made.
 * @param {CheckResult} result
 */
export function formatCheckResult(result) {
  const lines = [`${MARK[result.status]}  ${result.id.padEnd(ID_WIDTH)}${result.title}`, `      ${result.detail}`];
  if (result.status === 'fail') {
    for (const run of result.runs) {
      const events = run.events.join(' ');
      const answer = run.failure ? `${events ? `${events}, then ` : ''}${run.failure.message}` : events || '(no events)';
      const status = run.httpStatus === null ? 'no answer' : `HTTP ${run.httpStatus}`;
      lines.push(`        ${run.purpose} [thread ${run.threadId}, run ${run.runId}, ${status}]: ${answer}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The count, and what it means. @param {ConformanceReport} report */
export function formatConformanceSummary(report) {
  const total = report.checks.length;
  const parts = [`${report.passed} passed`, ...(report.failed ? [`${report.failed} failed`] : []), ...(report.skipped ? [`${report.skipped} skipped`] : [])];
  const verdict = report.ok ? 'The agent keeps the AG-UI interrupt lifecycle.' : 'The agent does not conform (see the FAIL lines).';
  return `\n${total} checks: ${parts.join(', ')}. ${verdict}\n`;
}
