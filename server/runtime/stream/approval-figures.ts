// The figures of Studio's approval metrics (docs/studio.md, "Approval metrics"), from decided
// approvals as the log has them: what became of each, how long a person took, per window and per
// tool. Pure: the same approvals and the same time give the same figures.
import { APPROVAL_OUTCOMES, type ApprovalOutcome, type MetricWindow, type TimeToDecide, type ToolOutcomes, type WindowFigures } from '../../contract';

const DAY_MS = 86_400_000;

/** A decided approval: whose tool, what became of it, and when it was asked and decided (ms). */
export interface DecidedApproval {
  agent: string;
  toolName: string;
  outcome: ApprovalOutcome;
  openedAt: number;
  decidedAt: number;
}

/** Outcomes a person decided: their times are the time to decide (an expiry's is its ttl, a withdrawal decides nothing). */
const PERSON_DECIDED: ReadonlySet<ApprovalOutcome> = new Set(['approved', 'edited', 'rejected']);

/** The nearest-rank percentile of ascending values: the smallest that `percent`% of them are at or below; null for none. */
function nearestRank(ascending: readonly number[], percent: number): number | null {
  if (ascending.length === 0) return null;
  return ascending[Math.max(0, Math.ceil((percent / 100) * ascending.length) - 1)]!;
}

function timeToDecide(approvals: readonly DecidedApproval[]): TimeToDecide {
  const times = approvals
    .filter((approval) => PERSON_DECIDED.has(approval.outcome))
    .map((approval) => approval.decidedAt - approval.openedAt)
    .sort((a, b) => a - b);
  return { decisions: times.length, medianMs: nearestRank(times, 50), p95Ms: nearestRank(times, 95) };
}

function toolOutcomes(approvals: readonly DecidedApproval[]): ToolOutcomes[] {
  const tools = new Map<string, ToolOutcomes>();
  for (const { agent, toolName, outcome } of approvals) {
    const key = JSON.stringify([agent, toolName]);
    let tool = tools.get(key);
    if (!tool)
      tools.set(key, (tool = { agent, toolName, counts: Object.fromEntries(APPROVAL_OUTCOMES.map((name) => [name, 0])) as ToolOutcomes['counts'], total: 0 }));
    tool.counts[outcome]++;
    tool.total++;
  }
  return [...tools.values()].sort((a, b) => b.total - a.total || a.toolName.localeCompare(b.toolName) || a.agent.localeCompare(b.agent));
}

/** The figures of the approvals asked in the `days` before `now` (an approval counts in the window it was asked in). */
export function windowFigures(approvals: readonly DecidedApproval[], days: MetricWindow, now: number): WindowFigures {
  const since = now - days * DAY_MS;
  const inWindow = approvals.filter((approval) => approval.openedAt >= since);
  return { days, since: new Date(since).toISOString(), timeToDecide: timeToDecide(inWindow), tools: toolOutcomes(inWindow) };
}

/** The start of the widest window: approvals asked before it count in none. */
export function earliestWindowStart(windows: readonly MetricWindow[], now: number): number {
  return now - Math.max(...windows) * DAY_MS;
}
