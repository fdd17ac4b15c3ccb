// The approval metrics (docs/observability.md, "Metrics"): how many pauses for a person opened
// and were decided, by tool and outcome, how long each took to decide, and how many wait now.
// The counts are made where the log is written (server/store/telemetry-store.ts); the pending
// count is read from the store each time the metrics are sent, so every process reports the
// database's number, not its own.
import { metrics, ValueType, type Counter, type Histogram } from '@opentelemetry/api';

/** How a decision is counted: approved as proposed, approved with edits, rejected, withdrawn, or its default action on expiry. */
export type ApprovalOutcome = 'approve' | 'edit' | 'reject' | 'cancel' | 'expire';

interface Instruments {
  opened: Counter;
  decided: Counter;
  timeToDecide: Histogram;
}

/** From a second to a week: people decide in seconds, or the next morning. */
const DECISION_BUCKETS_S = [1, 5, 15, 30, 60, 300, 900, 1_800, 3_600, 14_400, 43_200, 86_400, 259_200, 604_800];

/**
 * On globalThis, as the store is: each route's bundle has its own copy of this module. Made on
 * first use, after the SDK registered its meter provider — the metrics API has no proxy, so a meter
 * taken before would stay a no-op.
 */
const shared = globalThis as typeof globalThis & { __stackboneApprovalInstruments?: Instruments; __stackbonePendingObserved?: boolean };

function instruments(): Instruments {
  if (shared.__stackboneApprovalInstruments) return shared.__stackboneApprovalInstruments;
  const meter = metrics.getMeter('stackbone');
  return (shared.__stackboneApprovalInstruments = {
    opened: meter.createCounter('stackbone.approvals.opened', { description: 'Pauses for a person opened.', unit: '{approval}', valueType: ValueType.INT }),
    decided: meter.createCounter('stackbone.approvals.decided', { description: 'Pauses for a person decided.', unit: '{approval}', valueType: ValueType.INT }),
    timeToDecide: meter.createHistogram('stackbone.approval.time_to_decide', {
      description: 'From the pause opening to its decision.',
      unit: 's',
      advice: { explicitBucketBoundaries: DECISION_BUCKETS_S },
    }),
  });
}

export function countApprovalOpened(toolName: string): void {
  instruments().opened.add(1, { 'gen_ai.tool.name': toolName });
}

export function countApprovalDecided(toolName: string, outcome: ApprovalOutcome, waitedMs: number): void {
  const attributes = { 'gen_ai.tool.name': toolName, 'stackbone.approval.outcome': outcome };
  instruments().decided.add(1, attributes);
  instruments().timeToDecide.record(Math.max(0, waitedMs) / 1000, attributes);
}

/** Reports the pauses waiting now, by tool, as `read` finds them each time the metrics are sent; once per process. */
export function observePendingApprovals(read: () => Promise<Record<string, number>>): void {
  if (shared.__stackbonePendingObserved) return;
  shared.__stackbonePendingObserved = true;
  const gauge = metrics.getMeter('stackbone').createObservableGauge('stackbone.approvals.pending', {
    description: 'Pauses for a person waiting now, in the whole database (every instance reports the same number).',
    unit: '{approval}',
    valueType: ValueType.INT,
  });
  // A tool seen waiting reports 0 once none waits: the SDK would otherwise go on sending its last count.
  const seen = new Set<string>();
  gauge.addCallback(async (result) => {
    try {
      const counts = await read();
      for (const toolName of Object.keys(counts)) seen.add(toolName);
      for (const toolName of seen) result.observe(counts[toolName] ?? 0, { 'gen_ai.tool.name': toolName });
    } catch (error) {
      console.error('[stackbone] could not count the pending approvals for the metrics', error);
    }
  });
}
