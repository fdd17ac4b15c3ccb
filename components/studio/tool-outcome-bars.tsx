'use client';
// What became of each tool's approvals in a window (docs/studio.md, "Approval metrics"): per tool
// a stacked bar, approved · edited · rejected · expired · withdrawn, all bars on one scale (the
// busiest tool's is full width), and under it the same counts in words, which are what a screen
// reader reads — the bar itself is hidden from it. SVG by recharts; the colours are the theme's
// tokens (app/globals.css), so light and dark follow it, and each segment is edged with the card's
// colour so neighbours stay apart without telling colours apart.
import { Bar, BarChart, XAxis, YAxis } from 'recharts';
import { APPROVAL_OUTCOMES, type ApprovalOutcome, type ToolOutcomes } from '@/server/contract';
import { cn } from '../ui/cn';

const OUTCOME: Record<ApprovalOutcome, { label: string; fill: string; dot: string }> = {
  approved: { label: 'Approved', fill: 'var(--color-success)', dot: 'bg-success' },
  edited: { label: 'Edited', fill: 'var(--color-primary)', dot: 'bg-primary' },
  rejected: { label: 'Rejected', fill: 'var(--color-destructive)', dot: 'bg-destructive' },
  expired: { label: 'Expired', fill: 'var(--color-warning)', dot: 'bg-warning' },
  cancelled: { label: 'Withdrawn', fill: 'var(--color-muted-foreground)', dot: 'bg-muted-foreground' },
};

function OutcomeBar({ tool, scale }: { tool: ToolOutcomes; scale: number }) {
  return (
    <div className="h-3 overflow-hidden rounded-full bg-muted" aria-hidden>
      <BarChart
        layout="vertical"
        data={[{ name: tool.toolName, ...tool.counts }]}
        responsive
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 0, right: 0, bottom: 0, left: 0 }}
        barCategoryGap={0}
        accessibilityLayer={false}
      >
        <XAxis type="number" hide domain={[0, scale]} />
        <YAxis type="category" dataKey="name" hide />
        {APPROVAL_OUTCOMES.map((outcome) => (
          <Bar
            key={outcome}
            dataKey={outcome}
            stackId="outcomes"
            fill={OUTCOME[outcome].fill}
            stroke="var(--color-card)"
            strokeWidth={1}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </div>
  );
}

/** The counts in words: every outcome, a nought greyed, so the line reads the same for each tool. */
function OutcomeCounts({ tool }: { tool: ToolOutcomes }) {
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {APPROVAL_OUTCOMES.map((outcome) => (
        <div
          key={outcome}
          className={cn('flex items-center gap-1.5', tool.counts[outcome] === 0 && 'text-muted-foreground')}
          data-testid="outcome-count"
          data-outcome={outcome}
        >
          <span className={cn('size-2.5 rounded-full', OUTCOME[outcome].dot)} aria-hidden />
          <dt>{OUTCOME[outcome].label}</dt>
          <dd className="font-semibold tabular-nums" data-testid="outcome-count-value">
            {tool.counts[outcome]}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ToolOutcomeBars({ tools, days }: { tools: ToolOutcomes[]; days: number }) {
  if (tools.length === 0)
    return (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground" data-testid="tool-outcomes-empty">
        No approvals were asked in the last {days} days.
      </p>
    );
  const scale = Math.max(...tools.map((tool) => tool.total));
  return (
    <ul className="divide-y rounded-lg border bg-card text-card-foreground shadow-xs">
      {tools.map((tool) => (
        <li key={`${tool.agent}/${tool.toolName}`} className="px-3 py-3 sm:px-4" data-testid="tool-outcomes" data-agent={tool.agent} data-tool={tool.toolName}>
          <div className="mb-2 flex items-baseline justify-between gap-3">
            <span className="min-w-0 truncate">
              <span className="font-mono text-sm font-medium">{tool.toolName}</span>
              <span className="ml-2 text-xs text-muted-foreground">{tool.agent}</span>
            </span>
            <span className="shrink-0 text-sm text-muted-foreground">
              <span className="font-semibold text-foreground tabular-nums" data-testid="tool-outcomes-total">
                {tool.total}
              </span>{' '}
              decided
            </span>
          </div>
          <OutcomeBar tool={tool} scale={scale} />
          <OutcomeCounts tool={tool} />
        </li>
      ))}
    </ul>
  );
}
