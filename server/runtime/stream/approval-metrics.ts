// Studio's approval metrics (docs/studio.md, "Approval metrics"), read from the event log and
// nothing else: the store's listing of interrupts (the projection append() keeps of the log) says
// which approvals the caller may see — the inbox's scope, as the decision export reads it — and
// each session's fold says what was decided and when. No counter is kept anywhere.
import type { ApprovalMetrics, OpenApproval } from '../../contract';
import { METRIC_WINDOWS } from '../../contract';
import type { JsonObject } from '../../store/messages';
import type { DecisionActor } from '../../store/pauses';
import type { EventStore, InterruptRow, PendingInterruptsOptions } from '../../store/types';
import { own } from '../common';
import { isExpired, mayDecide, seesOthersApprovals } from '../decisions';
import { loadView, sessionKeyOf, type SessionView } from '../session';
import { approvalOutcome } from '../../store/approval-outcome';
import { earliestWindowStart, windowFigures, type DecidedApproval } from './approval-figures';

/** Rows per read of the store. */
const PAGE = 500;
/** The most decided approvals one answer reads (newest asked first); past them the figures say they are capped. */
const MAX_DECIDED = 5_000;
/** The most waiting approvals one answer reads. */
const MAX_PENDING = 2_000;
/** How many of the longest-waiting approvals are listed. */
const SLOWEST = 10;

interface Listing {
  rows: InterruptRow[];
  capped: boolean;
}

/** The caller's interrupts of one status, newest asked first, until one was asked before `since` (or `most` are read). */
async function listed(
  store: EventStore,
  ownerId: string,
  options: Pick<PendingInterruptsOptions, 'keyHolder' | 'status'>,
  most: number,
  since = -Infinity,
): Promise<Listing> {
  const rows: InterruptRow[] = [];
  let after: PendingInterruptsOptions['after'];
  for (;;) {
    const page = await store.listPendingInterrupts(ownerId, { ...options, after, limit: PAGE });
    const fresh = page.filter((row) => row.createdAt.getTime() >= since);
    rows.push(...fresh);
    if (rows.length > most) return { rows: rows.slice(0, most), capped: true };
    if (page.length < PAGE || fresh.length < page.length) return { rows, capped: false };
    const last = page.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The seq of a fork's `thread_forked`: what is before it was copied from the original, whose
 * decisions they are (docs/time-travel.md) — counted there, not again here. 0 for an original.
 */
async function forkedAtSeq(store: EventStore, sessionId: string, view: SessionView): Promise<number> {
  if (!view.forkedFrom) return 0;
  const events = await store.readEvents(sessionId);
  return events.find(({ event }) => event.type === 'thread_forked')?.seq ?? 0;
}

/** The decided approvals of `rows`, as each session's log has them. */
async function decidedApprovals(store: EventStore, rows: readonly InterruptRow[], initialStateOf: (agent: string) => JsonObject): Promise<DecidedApproval[]> {
  const approvals: DecidedApproval[] = [];
  for (const [sessionId, sessionRows] of Map.groupBy(rows, (row) => row.sessionId)) {
    const view = await loadView(store, sessionId, initialStateOf(sessionRows[0]!.agent));
    const copiedUpTo = await forkedAtSeq(store, sessionId, view);
    for (const row of sessionRows) {
      const state = own(view.interrupts, row.id);
      if (!state?.decision || state.decidedAt === undefined || (state.decidedSeq ?? 0) < copiedUpTo) continue;
      approvals.push({
        agent: state.record.agent,
        toolName: state.record.toolName,
        outcome: approvalOutcome(state.decision),
        openedAt: Date.parse(state.openedAt),
        decidedAt: Date.parse(state.decidedAt),
      });
    }
  }
  return approvals;
}

function openApproval(row: InterruptRow, callerOwnerId: string, now: number): OpenApproval {
  return {
    interruptId: row.id,
    sessionId: sessionKeyOf(row.sessionId),
    ownSession: row.ownerId === callerOwnerId,
    sessionAgent: row.agent,
    agent: row.record.agent,
    toolName: row.record.toolName,
    message: row.record.message,
    openedAt: row.createdAt.toISOString(),
    waitingMs: now - row.createdAt.getTime(),
  };
}

/**
 * How the approvals `actor` may see are going at `now`: what waits (not past its expiry, which is
 * taking its default action), the longest waits, and per window the time to decide and each tool's
 * outcomes. Questions are not approvals and are left out; each session's log is folded from its
 * agent's initial state (`initialStateOf`).
 */
export async function approvalMetrics(
  store: EventStore,
  actor: DecisionActor & { ownerId: string },
  initialStateOf: (agent: string) => JsonObject,
  now = new Date(),
): Promise<ApprovalMetrics> {
  const at = now.getTime();
  const keyHolder = seesOthersApprovals(actor.credential);
  // What the inbox and the decision export list for the caller, and of it what the caller may decide.
  const visible = (row: InterruptRow) => row.record.reason !== 'input_required' && mayDecide(row.record, row.ownerId, actor);
  const [pending, decided] = await Promise.all([
    listed(store, actor.ownerId, { keyHolder, status: 'pending' }, MAX_PENDING),
    listed(store, actor.ownerId, { keyHolder, status: 'decided' }, MAX_DECIDED, earliestWindowStart(METRIC_WINDOWS, at)),
  ]);
  const waiting = pending.rows
    .filter((row) => visible(row) && !isExpired(row.record, at))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const approvals = await decidedApprovals(store, decided.rows.filter(visible), initialStateOf);
  return {
    at: now.toISOString(),
    pending: waiting.length,
    slowest: waiting.slice(0, SLOWEST).map((row) => openApproval(row, actor.ownerId, at)),
    windows: METRIC_WINDOWS.map((days) => windowFigures(approvals, days, at)),
    capped: pending.capped || decided.capped,
  };
}
