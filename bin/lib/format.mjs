// Human-readable output: the pending list as a table, one call before a decision, results.

/**
 * A compact duration: 42s, 5m, 3h 20m, 2d 4h. @param {number} ms
 * @public — bin/stackbone.test.ts imports it by path.
 */
export function formatDuration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** "5m ago" from an ISO time. @param {string | null | undefined} iso @param {number} now */
function formatAge(iso, now) {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? '-' : `${formatDuration(now - t)} ago`;
}

/** "in 23h 59m", "expired" or "never". @param {string | null | undefined} iso @param {number} now */
function formatExpiry(iso, now) {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '-';
  return t <= now ? 'expired' : `in ${formatDuration(t - now)}`;
}

/** One line, at most `max` characters. @param {unknown} value @param {number} max */
function truncate(value, max) {
  const line = String(value ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= max) return line;
  return max <= 1 ? line.slice(0, max) : `${line.slice(0, max - 1)}…`;
}

/**
 * The pending interrupts as a table: ID, AGENT, TOOL, MESSAGE, AGE, EXPIRES.
 * The message column shrinks to fit `width` (the terminal's), never below 20 characters.
 * `more`: the command that lists the next page, when the server has one.
 * @param {any[]} interrupts
 * @param {{ now?: number, width?: number, more?: string }} [options]
 */
export function formatTable(interrupts, { now = Date.now(), width = 120, more } = {}) {
  const next = more ? `More on the next page: ${more} (or --all for every page)\n` : '';
  if (interrupts.length === 0) return `No pending interrupts${more ? ' on this page' : ''}.\n${next}`;
  const header = ['ID', 'AGENT', 'TOOL', 'MESSAGE', 'AGE', 'EXPIRES'];
  const rows = interrupts.map((i) => [
    String(i.id),
    String(i.agent ?? '-'),
    String(i.toolName ?? '-'),
    String(i.message ?? ''),
    formatAge(i.createdAt, now),
    formatExpiry(i.expiresAt, now),
  ]);
  const MESSAGE = 3;
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (c === MESSAGE ? 0 : r[c].length))));
  const others = widths.reduce((sum, w, c) => (c === MESSAGE ? sum : sum + w), 0) + 2 * (header.length - 1);
  const longest = Math.max(header[MESSAGE].length, ...rows.map((r) => r[MESSAGE].replace(/\s+/g, ' ').trim().length));
  widths[MESSAGE] = Math.min(longest, Math.max(20, width - others));
  const line = (/** @type {string[]} */ cells) =>
    cells
      .map((cell, c) => truncate(cell, widths[c]).padEnd(c === cells.length - 1 ? 0 : widths[c]))
      .join('  ')
      .trimEnd();
  const count = `${interrupts.length} pending interrupt${interrupts.length === 1 ? '' : 's'}${more ? ' on this page' : ''}`;
  return [line(header), ...rows.map(line), '', count, ''].join('\n') + next;
}

/** JSON, continued lines aligned under the first (after an 11-character label). @param {unknown} value */
function pretty(value) {
  return JSON.stringify(value ?? null, null, 2).replace(/\n/g, `\n${' '.repeat(11)}`);
}

/**
 * The call a decision is about, shown before the confirmation prompt.
 * @param {any} interrupt an entry of GET /api/hitl
 * @param {{ now?: number, edit?: unknown, payload?: unknown, reason?: string }} [extra] what the decision will send
 */
export function formatCall(interrupt, { now = Date.now(), edit, payload, reason } = {}) {
  const lines = [
    `Interrupt  ${interrupt.id}`,
    `Session    ${interrupt.sessionId}  (agent ${interrupt.agent})`,
    `Tool       ${interrupt.toolName}  (call ${interrupt.toolCallId})`,
    `Message    ${interrupt.message ?? ''}`,
    `Arguments  ${pretty(interrupt.args)}`,
  ];
  if (edit !== undefined) lines.push(`Edited to  ${pretty(edit)}`);
  if (payload !== undefined) lines.push(`Payload    ${pretty(payload)}`);
  if (reason !== undefined) lines.push(`Reason     ${reason}`);
  lines.push(`Created    ${formatAge(interrupt.createdAt, now)}, expires ${formatExpiry(interrupt.expiresAt, now)}`);
  return `${lines.join('\n')}\n`;
}

const DONE = { approved: 'Approved', denied: 'Rejected', cancelled: 'Cancelled' };

/**
 * One line about an applied decision (the response of POST /api/hitl/{id}/{action}).
 * @param {any} result
 */
export function formatDecision(result) {
  if (result?.vote) {
    // A vote short of the call's quorum (docs/approvals.md, "Quorum and separation of duties").
    const i = result.interrupt ?? {};
    const verb = result.vote.status === 'denied' ? 'reject' : 'approve';
    return `Voted to ${verb} ${i.toolName} (interrupt ${i.id}, session ${i.sessionId}): it needs ${result.quorum} distinct approvers; it is decided once they have voted.\n`;
  }
  const status = result?.decision?.status;
  const verb = DONE[/** @type {keyof typeof DONE} */ (status)] ?? `Decided (${status})`;
  const i = result?.interrupt ?? {};
  const next = result?.continuation
    ? `the run continues (run ${result.continuation.runId}).`
    : 'other decisions of this batch are still pending; the run continues once they are made.';
  return `${verb} ${i.toolName} (interrupt ${i.id}, session ${i.sessionId}): ${next}\n`;
}

/**
 * One line about a stop request (the response of POST /api/v1/sessions/{threadId}/stop).
 * @param {any} result
 */
export function formatStop(result) {
  const thread = result?.threadId;
  if (result?.stopped) return `Stopped run ${result.runId} on ${thread}.\n`;
  if (result?.reason === 'other_run') return `Nothing to stop: run ${result.runId} is not the run in progress on ${thread} (that one was left running).\n`;
  return `Nothing to stop: ${thread} has no run in progress.\n`;
}

/**
 * Text from the server, made safe for a terminal: control characters (ANSI escapes above all,
 * which could repaint what is being approved) are shown as `\u001b`-style escapes — valid inside
 * JSON strings too — and newlines and tabs stay. @param {string} text
 */
export function terminalSafe(text) {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
