'use client';
// A model's reasoning, right before the reply it led to: open while it streams ("Thinking…"),
// folded to one line once the model moves on, and opened again on click.
import type { ReasoningMessage } from '@ag-ui/client';
import { BrainIcon, ChevronRightIcon, Loader2Icon } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';

export function ReasoningBlock({ message, streaming }: { message: ReasoningMessage; streaming: boolean }) {
  // null: follow the stream (open while it streams); a boolean: the reader's own choice.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? streaming;
  return (
    <Collapsible.Root open={open} onOpenChange={setChosen} className="text-sm" data-testid="reasoning" data-streaming={streaming || undefined}>
      <Collapsible.Trigger
        className="inline-flex items-center gap-1.5 rounded text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="reasoning-toggle"
      >
        <ChevronRightIcon className={`size-3.5 transition-transform ${open ? 'rotate-90' : ''}`} aria-hidden />
        {streaming ? <Loader2Icon className="size-3.5 animate-spin" aria-hidden /> : <BrainIcon className="size-3.5" aria-hidden />}
        {streaming ? 'Thinking…' : 'Thinking'}
      </Collapsible.Trigger>
      <Collapsible.Content forceMount className="mt-1.5 data-[state=closed]:hidden">
        <div className="border-l-2 pl-3 whitespace-pre-wrap break-words text-muted-foreground" data-testid="reasoning-text">
          {message.content}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
