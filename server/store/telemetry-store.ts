// A store that tells OpenTelemetry about the pauses it writes (docs/observability.md, "The
// approval span", "Metrics"). Every path a decision takes — a resume, /api/hitl, Studio, a link,
// MCP, a queued message, an expiry's default action — ends in an append of `interrupt_decided`,
// and every pause in one of `interrupts_opened`: counting them here counts each once, after it
// committed, in whichever process wrote it. A decision's span is emitted before the append
// returns, so the run the same append started finds it (server/telemetry/run-span.ts).
//
// Only a server with telemetry on wraps its store in this (index.ts); telemetry never fails a
// write: what it cannot read or record is logged and skipped.
import {
  countApprovalDecided,
  countApprovalOpened,
  observePendingApprovals,
  recordApprovalSpan,
  type ApprovalOutcome,
  type DecidedInterrupt,
} from '../telemetry';
import { approvalOutcome, type ApprovalOutcome as StoredOutcome } from './approval-outcome';
import type { SessionEvent } from './events';
import type { Decision } from './pauses';
import type { EventStore } from './types';
import { sessionKeyOfRow } from './session-key-of-row';

type Decided = Extract<SessionEvent, { type: 'interrupt_decided' }>;

/** The telemetry's word for each outcome (docs/observability.md, "Metrics"); the outcome is the one rule, approval-outcome.ts. */
const METRIC_OUTCOME: Record<StoredOutcome, ApprovalOutcome> = {
  approved: 'approve',
  edited: 'edit',
  rejected: 'reject',
  expired: 'expire',
  cancelled: 'cancel',
};

/** A decision in the words of the approval span and of the metrics (docs/observability.md). */
export function decisionOutcome(decision: Decision): { decision: DecidedInterrupt['decision']; outcome: ApprovalOutcome } {
  const outcome = approvalOutcome(decision);
  return { decision: outcome === 'expired' ? 'expired' : decision.status, outcome: METRIC_OUTCOME[outcome] };
}

async function tellDecision(store: EventStore, event: Decided, decidedAt: Date): Promise<void> {
  const row = await store.findInterrupt(event.interruptId);
  if (!row) return;
  const { record } = row;
  const { decision, outcome } = decisionOutcome(event.decision);
  countApprovalDecided(record.toolName, outcome, decidedAt.getTime() - row.createdAt.getTime());
  recordApprovalSpan({
    interruptId: record.id,
    reason: record.reason,
    toolName: record.toolName,
    toolCallId: record.toolCallId,
    agent: record.agent,
    // A stored session id is `<owner>/<key>` (server/runtime/session/session-id.ts); the key is what its owner calls it.
    conversationId: sessionKeyOfRow(row),
    runId: record.runId,
    decision,
    outcome,
    channel: event.decision.by.source,
    openedAt: row.createdAt,
    decidedAt,
    ...(record.traceparent ? { pausedRun: record.traceparent } : {}),
  });
}

async function tell(store: EventStore, events: SessionEvent[], at: string): Promise<void> {
  for (const event of events) {
    if (event.type === 'interrupts_opened') for (const record of event.interrupts) countApprovalOpened(record.toolName);
    if (event.type === 'interrupt_decided') await tellDecision(store, event, new Date(at));
  }
}

export function telemetryStore(store: EventStore): EventStore {
  observePendingApprovals(() => store.countPendingInterrupts());
  return {
    ...store,
    async append(sessionId, expectedSeq, events, options) {
      const written = await store.append(sessionId, expectedSeq, events, options);
      await tell(store, events, written.at).catch((error) => console.error('[stackbone] could not record the telemetry of a write; it is written', error));
      return written;
    },
  };
}
