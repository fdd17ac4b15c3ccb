// What became of the thread's tool calls that people decided or a stop cut (docs/hitl.md,
// "Decisions in the chat"), by toolCallId: seeded from the first paint, then kept current by
// the `stackbone.interrupt_decided` and `stackbone.tools_stopped` events — in this tab's runs,
// in the runs it follows, and on the session stream outside any run — so every tab shows the
// same decision line and status under each call. The run's other notice about its thread, a
// compaction of older turns (`stackbone.context_compacted`; docs/models.md, "Long threads"),
// is kept the same way.
import { CONTEXT_COMPACTED, INTERRUPT_DECIDED, TOOLS_STOPPED, type ContextCompactedValue, type DecisionRecord } from '@/server/contract';
import type { SnapshotHost } from './snapshot';

const STATUSES = new Set(['approved', 'denied', 'cancelled']);

export class ToolOutcomes {
  constructor(private readonly host: SnapshotHost) {}

  /** Takes in one of our CUSTOM events; any other name is left alone. */
  take(name: string, value: unknown): void {
    const { decisions, stoppedToolCallIds, compactions } = this.host.getSnapshot();
    if (name === INTERRUPT_DECIDED) {
      const decision = decisionOf(value);
      if (decision) this.host.publish({ decisions: { ...decisions, [decision.toolCallId]: decision } });
    } else if (name === TOOLS_STOPPED) {
      const ids = stoppedOf(value).filter((id) => !stoppedToolCallIds.includes(id));
      if (ids.length) this.host.publish({ stoppedToolCallIds: [...stoppedToolCallIds, ...ids] });
    } else if (name === CONTEXT_COMPACTED) {
      const compaction = compactionOf(value);
      // A replayed run sends it again: one notice per compaction.
      if (compaction && !compactions.some((known) => known.throughMessageId === compaction.throughMessageId && known.at === compaction.at))
        this.host.publish({ compactions: [...compactions, compaction] });
    }
  }
}

/** The first paint's decisions, by the call each decided. */
export function decisionsByToolCall(records: readonly DecisionRecord[]): Record<string, DecisionRecord> {
  return Object.fromEntries(records.map((record) => [record.toolCallId, record]));
}

/**
 * A `stackbone.interrupt_decided` value as a record; null when it is not one (a server that
 * sent the id, status and source alone says too little to show).
 */
function decisionOf(value: unknown): DecisionRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const { by, credential, ...fields } = value as Record<string, unknown>;
  const { interruptId, toolCallId, toolName, interruptReason, status, at } = fields;
  const texts = [interruptId, toolCallId, toolName, interruptReason, at, by];
  if (!texts.every((text) => typeof text === 'string') || !STATUSES.has(status as string)) return null;
  return {
    ...(fields as Omit<DecisionRecord, 'by'>),
    by: {
      source: by as DecisionRecord['by']['source'],
      ...(typeof credential === 'string' ? { credential: credential as DecisionRecord['by']['credential'] } : {}),
    },
  };
}

/** A `stackbone.context_compacted` value; null when it is not one. */
function compactionOf(value: unknown): ContextCompactedValue | null {
  if (typeof value !== 'object' || value === null) return null;
  const { throughMessageId, method, summary, tokensBefore, tokensAfter, at } = value as Record<string, unknown>;
  if (typeof throughMessageId !== 'string' || typeof summary !== 'string' || typeof at !== 'string') return null;
  if ((method !== 'summary' && method !== 'trim') || typeof tokensBefore !== 'number' || typeof tokensAfter !== 'number') return null;
  return { throughMessageId, method, summary, tokensBefore, tokensAfter, at };
}

function stoppedOf(value: unknown): string[] {
  const ids = (value as { toolCallIds?: unknown } | null)?.toolCallIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}
