'use client';
// Studio's approval metrics (docs/studio.md, "Approval metrics"): what waits on a person now, how
// long people take to decide and what they decided per tool over the last 7 or 30 days, and the
// approvals that have waited longest. One read of GET /api/studio/approval-metrics, counted from the
// event log; read again every half minute, and whenever the tab comes back.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MetricWindow } from '@/server/contract';
import { LocalTime } from '../local-time';
import { MetricFigures } from './metric-figures';
import { SlowestApprovals } from './slowest-approvals';
import { fetchApprovalMetrics, StudioError } from './studio-api';
import { StudioSignIn } from './studio-sign-in';
import { ToolOutcomeBars } from './tool-outcome-bars';
import { WindowToggle } from './window-toggle';

const REFRESH_MS = 30_000;

export function ApprovalMetricsView() {
  const metrics = useQuery({ queryKey: ['studio', 'metrics'], queryFn: fetchApprovalMetrics, refetchInterval: REFRESH_MS });
  const [days, setDays] = useState<MetricWindow>(7);
  if (metrics.error instanceof StudioError && metrics.error.code === 'unauthorized') return <StudioSignIn next="/studio/metrics" />;
  if (metrics.error && !metrics.data)
    return (
      <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
        Could not load the metrics: {metrics.error.message}
      </p>
    );
  if (!metrics.data) return <p className="py-8 text-center text-sm text-muted-foreground">Counting the approvals…</p>;
  const { at, pending, slowest, windows, capped } = metrics.data;
  const figures = windows.find((window) => window.days === days) ?? windows[0]!;
  return (
    <div className="space-y-10" data-testid="approval-metrics" data-at={at} data-days={figures.days}>
      <section aria-labelledby="metrics-figures-title" className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="metrics-figures-title" className="text-lg font-semibold tracking-tight">
            At a glance
          </h2>
          <WindowToggle value={figures.days} onChange={setDays} />
        </div>
        <MetricFigures pending={pending} figures={figures} />
        <p className="text-xs text-muted-foreground">
          Counted <LocalTime iso={at} seconds /> from the conversations&apos; event logs, over the approvals you may decide.
          {capped && ' There were more than one reading takes: these figures are of the most recent ones.'}
        </p>
      </section>

      <section aria-labelledby="metrics-tools-title">
        <h2 id="metrics-tools-title" className="mb-1 text-lg font-semibold tracking-tight">
          Outcomes by tool
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">What became of the approvals asked in the last {figures.days} days, busiest tool first.</p>
        <ToolOutcomeBars tools={figures.tools} days={figures.days} />
      </section>

      <section aria-labelledby="metrics-slowest-title">
        <h2 id="metrics-slowest-title" className="mb-1 text-lg font-semibold tracking-tight">
          Waiting longest
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">The open approvals that have waited longest, oldest first.</p>
        <SlowestApprovals approvals={slowest} pending={pending} />
      </section>
    </div>
  );
}
