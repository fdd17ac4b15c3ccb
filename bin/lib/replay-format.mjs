// The replay report as a person reads it (docs/replay.md, "The diff"): what the replay ran, then
// one line per difference, then the verdict.

/** @param {unknown} value */
function json(value) {
  return JSON.stringify(value);
}

/** @param {string} text @param {number} max */
function clip(text, max = 160) {
  const line = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * @param {any} report the server's replay report (server/runtime/replay/replay.ts)
 * @returns {string}
 */
export function formatReplay(report) {
  const against = report.agent === report.recordedAgent ? `its agent ${report.agent}` : `${report.agent} (recorded on ${report.recordedAgent})`;
  const out = [`Replayed session ${report.session} against ${against}: ${report.turns} turn${report.turns === 1 ? '' : 's'}.`];
  if (!report.deterministic) out.push('Note: the agent runs on a real model, not the scripted one: a replay may differ from run to run.');
  /** @type {string[]} */
  const lines = [];
  const call = (/** @type {any} */ c) => `${c.toolName} ${json(c.input)}`;
  for (const c of report.approvals.newlyNeeded) lines.push(`  newly needs approval    ${call(c)}`);
  for (const c of report.approvals.noLongerNeeded) lines.push(`  no longer asks approval ${call(c)}`);
  for (const c of report.calls.added) lines.push(`  + call added            ${call(c)}`);
  for (const c of report.calls.removed) lines.push(`  - call removed          ${call(c)}`);
  for (const c of report.calls.changed) lines.push(`  ~ call changed          ${c.toolName} ${json(c.before)} -> ${json(c.after)}`);
  for (const d of report.decisions.unused) lines.push(`  decision unused         ${call(d)} was ${d.status}; no replayed call matches it`);
  for (const d of report.decisions.unrecorded)
    lines.push(`  no recorded decision    ${call(d)}: ${d.reason === 'input_required' ? 'withdrawn' : 'denied'} in the replay`);
  for (const d of report.decisions.notApplied) lines.push(`  decision not replayed   ${call(d)} was ${d.status}; ${d.why}: withdrawn in the replay`);
  for (const a of report.answers ?? []) {
    lines.push(`  answer of turn ${a.turn} changed`);
    lines.push(`    before: ${clip(a.before)}`);
    lines.push(`    after:  ${clip(a.after)}`);
  }
  if (report.finalAnswer) {
    lines.push('  final answer changed');
    lines.push(`    before: ${clip(report.finalAnswer.before)}`);
    lines.push(`    after:  ${clip(report.finalAnswer.after)}`);
  }
  if (report.identical) out.push('Identical: the same calls, approvals, decisions and final answer.');
  else out.push('Differences:', ...lines, `Different (${lines.filter((line) => !line.startsWith('    ')).length}).`);
  return `${out.join('\n')}\n`;
}
