// The headline figures of Studio's approval metrics (docs/studio.md, "Approval metrics"): what
// waits now, and in the window chosen the median and 95th-percentile time to decide and how many
// approvals asked in it were decided (an expiry and a withdrawal too). Each figure carries its exact value (`data-value`,
// milliseconds for a time) beside the text a person reads.
import type { ReactNode } from 'react';
import type { WindowFigures } from '@/server/contract';
import { formatElapsed } from './elapsed';

function Figure({ label, value, text, hint, testId }: { label: string; value: number | null; text: string; hint: ReactNode; testId: string }) {
  return (
    <div className="rounded-lg border bg-card p-3 text-card-foreground shadow-xs sm:p-4" data-testid={testId}>
      <dt className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl" data-testid={`${testId}-value`} data-value={value ?? ''}>
        {text}
      </dd>
      <dd className="mt-1 text-xs text-muted-foreground">{hint}</dd>
    </div>
  );
}

const time = (ms: number | null) => (ms === null ? '—' : formatElapsed(ms));

export function MetricFigures({ pending, figures }: { pending: number; figures: WindowFigures }) {
  const { medianMs, p95Ms, decisions } = figures.timeToDecide;
  const decided = figures.tools.reduce((sum, tool) => sum + tool.total, 0);
  const over = `last ${figures.days} days`;
  const ofDecisions = decisions === 0 ? `No decisions in the ${over}` : `Of ${decisions} ${decisions === 1 ? 'decision' : 'decisions'}, ${over}`;
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Figure label="Pending now" value={pending} text={String(pending)} hint="Waiting on a person" testId="metric-pending" />
      <Figure label="Median time to decide" value={medianMs} text={time(medianMs)} hint={ofDecisions} testId="metric-median" />
      <Figure label="95th percentile" value={p95Ms} text={time(p95Ms)} hint={ofDecisions} testId="metric-p95" />
      <Figure label="Decided" value={decided} text={String(decided)} hint={`Of those asked in the ${over}`} testId="metric-decided" />
    </dl>
  );
}
