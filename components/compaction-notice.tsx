'use client';
// Where a long thread's older turns were compacted (docs/models.md, "Long threads"): a divider
// after the last message the summary stands for, with the summary folded under it, as a
// reasoning block folds its thinking. Every message stays in the chat; only what the model is
// sent changed.
import { ChevronRightIcon, FoldVerticalIcon } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import type { ContextCompactedValue } from '@/server/contract';

export function CompactionNotice({ compaction }: { compaction: ContextCompactedValue }) {
  const label = compaction.method === 'summary' ? 'Earlier messages summarised' : 'Earlier tool results trimmed';
  return (
    <Collapsible.Root className="text-sm" data-testid="compaction-notice" data-method={compaction.method}>
      <div className="flex items-center gap-2 text-muted-foreground">
        <span className="h-px flex-1 bg-border" aria-hidden />
        <Collapsible.Trigger
          className="group inline-flex items-center gap-1.5 rounded hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          data-testid="compaction-toggle"
          title={`About ${compaction.tokensBefore} tokens became about ${compaction.tokensAfter}: the model is sent this summary in place of the messages above.`}
        >
          <FoldVerticalIcon className="size-3.5" aria-hidden />
          {label}
          <ChevronRightIcon className="size-3.5 transition-transform group-data-[state=open]:rotate-90" aria-hidden />
        </Collapsible.Trigger>
        <span className="h-px flex-1 bg-border" aria-hidden />
      </div>
      <Collapsible.Content className="mt-1.5">
        <div className="border-l-2 pl-3 whitespace-pre-wrap break-words text-muted-foreground" data-testid="compaction-summary">
          {compaction.summary}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
