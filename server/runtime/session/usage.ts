// What a thread's model calls cost, summed from its steps (docs/internals/architecture.md, "Usage"): one
// entry per provider and model, the shape AG-UI's RUN_FINISHED carries, and the totals the chat
// wires report. A count no step reported stays absent, so "not reported" is not read as 0.
import type { ModelLabel, TokenUsage } from '../../store/events';

/** The usage of one provider and model. */
export interface UsageEntry extends TokenUsage {
  provider?: string;
  model?: string;
}

/** Every count, with 0 for one never reported: what a chat API's `usage` needs. */
export type UsageTotals = Required<TokenUsage>;

const COUNTS = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

/** The entries with one step's usage added to its model's entry (a new entry for a model not seen yet). */
export function addUsage(entries: readonly UsageEntry[], usage: TokenUsage | undefined, model: ModelLabel | undefined): UsageEntry[] {
  if (!usage || !COUNTS.some((key) => Number.isFinite(usage[key]))) return entries as UsageEntry[];
  const index = entries.findIndex((entry) => entry.provider === model?.provider && entry.model === model?.id);
  const before: UsageEntry = index < 0 ? { ...(model ? { provider: model.provider, model: model.id } : {}) } : entries[index]!;
  const after: UsageEntry = { ...before };
  for (const key of COUNTS) {
    const count = usage[key];
    if (Number.isFinite(count)) after[key] = (before[key] ?? 0) + count!;
  }
  return index < 0 ? [...entries, after] : entries.map((entry, i) => (i === index ? after : entry));
}

/** All entries summed. */
export function totalUsage(entries: readonly UsageEntry[]): UsageTotals {
  const totals: UsageTotals = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 };
  for (const entry of entries) for (const key of COUNTS) totals[key] += entry[key] ?? 0;
  return totals;
}
