// Studio's approval metrics (docs/studio.md, "Approval metrics"): what GET
// /api/studio/approval-metrics answers — how the approvals the caller may see are going, read from
// the event log: what waits now, how long people take to decide, and what they decided, per tool.

/** The windows the figures are counted over, in days back from the time of the answer. */
export const METRIC_WINDOWS = [7, 30] as const;
export type MetricWindow = (typeof METRIC_WINDOWS)[number];

import type { ApprovalOutcome } from '../store/approval-outcome';

/**
 * What became of an approval: approved as asked, approved with edited arguments, rejected,
 * decided by its expiry's default action (approve or deny), or withdrawn (cancelled).
 */
export { APPROVAL_OUTCOMES, type ApprovalOutcome } from '../store/approval-outcome';

/** One tool's outcomes in a window. */
export interface ToolOutcomes {
  /** The agent whose tool it is (a subagent's name when raised inside one). */
  agent: string;
  toolName: string;
  counts: Record<ApprovalOutcome, number>;
  total: number;
}

/** How long a person took, from the request to its decision: approvals, edits and rejections only. */
export interface TimeToDecide {
  /** How many decisions the times are of. */
  decisions: number;
  /** Nearest rank: half of the decisions took this long or less; null without decisions. */
  medianMs: number | null;
  /** Nearest rank: 95 in 100 of the decisions took this long or less; null without decisions. */
  p95Ms: number | null;
}

/** The figures of the approvals asked in one window. */
export interface WindowFigures {
  days: MetricWindow;
  /** ISO: the window's start (the answer's time less `days`). */
  since: string;
  timeToDecide: TimeToDecide;
  /** Most decided first, then by name. */
  tools: ToolOutcomes[];
}

/** An approval waiting now, as the list of the longest-waiting shows it. */
export interface OpenApproval {
  interruptId: string;
  /** The session as its owner names it. */
  sessionId: string;
  /** False for a browser's call kept for key holders: the conversation is not the caller's to open. */
  ownSession: boolean;
  /** The session's agent (its chat's address). */
  sessionAgent: string;
  /** The agent whose tool it is. */
  agent: string;
  toolName: string;
  /** The line a person reads about the call. */
  message: string;
  openedAt: string;
  /** How long it had waited at the answer's time. */
  waitingMs: number;
}

export interface ApprovalMetrics {
  /** ISO: when the figures were read; the windows and waits count back from it. */
  at: string;
  /** Approvals waiting on a person now (not past their expiry). */
  pending: number;
  /** The longest-waiting of them, oldest first (at most 10). */
  slowest: OpenApproval[];
  /** One per METRIC_WINDOWS entry, in that order. */
  windows: WindowFigures[];
  /** True when there were more approvals than one answer reads: the figures are of the newest ones. */
  capped: boolean;
}
