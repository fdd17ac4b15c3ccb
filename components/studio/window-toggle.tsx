'use client';
// Which window Studio's approval metrics count over (docs/studio.md, "Approval metrics"): one of
// METRIC_WINDOWS, as a pair of buttons of which one is pressed (a Radix toggle group: arrow keys
// move between them, a screen reader hears which is on).
import { ToggleGroup } from 'radix-ui';
import { METRIC_WINDOWS, type MetricWindow } from '@/server/contract';

export function WindowToggle({ value, onChange }: { value: MetricWindow; onChange: (days: MetricWindow) => void }) {
  return (
    <ToggleGroup.Root
      type="single"
      value={String(value)}
      // Pressing the pressed one again would leave none: the window stays.
      onValueChange={(next) => next && onChange(Number(next) as MetricWindow)}
      aria-label="Count over"
      className="inline-flex self-start rounded-md border border-input bg-card p-0.5 shadow-xs sm:self-auto"
      data-testid="metrics-window"
    >
      {METRIC_WINDOWS.map((days) => (
        <ToggleGroup.Item
          key={days}
          value={String(days)}
          className="h-8 rounded-sm px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=on]:bg-primary data-[state=on]:text-primary-foreground"
          data-testid={`metrics-window-${days}`}
        >
          Last {days} days
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
