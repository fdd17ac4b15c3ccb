// What a tool looked up for whoever decides (docs/hitl.md, "Approval context"): the facts, then
// what to weigh. One piece for the chat's card (and so Studio's inbox) and the emailed page.
import { TriangleAlertIcon } from 'lucide-react';
import type { InboxItem } from '@/server/contract';

type ApprovalFacts = NonNullable<InboxItem['context']>;

export function ApprovalContext({ context, testId }: { context: ApprovalFacts; testId: string }) {
  return (
    <div className="space-y-2" data-testid={testId}>
      {context.facts.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t pt-2 text-sm">
          {context.facts.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="text-muted-foreground">{fact.label}</dt>
              <dd className="font-medium break-words" data-testid="approval-context-fact">
                {fact.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {context.risk && (
        <p className="flex items-start gap-1.5 rounded-md bg-background/60 px-2 py-1.5 text-sm text-warning" data-testid="approval-risk">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          {context.risk}
        </p>
      )}
    </div>
  );
}
