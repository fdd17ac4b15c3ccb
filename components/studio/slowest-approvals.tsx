// The approvals that have waited longest (docs/studio.md, "Approval metrics"), oldest first: the
// call, whose tool, how long it has waited, and links to its conversation (the caller's own
// sessions only: a browser's call kept for key holders is decided here, its thread is the
// customer's) and to its entry in the inbox, where it is decided.
import { InboxIcon, MessageSquareIcon } from 'lucide-react';
import Link from 'next/link';
import type { OpenApproval } from '@/server/contract';
import { LocalTime } from '../local-time';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { formatElapsed } from './elapsed';

export function SlowestApprovals({ approvals, pending }: { approvals: OpenApproval[]; pending: number }) {
  if (approvals.length === 0)
    return (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground" data-testid="slowest-empty">
        Nothing is waiting on a person.
      </p>
    );
  return (
    <>
      <ol className="divide-y rounded-lg border bg-card text-card-foreground shadow-xs">
        {approvals.map((approval) => (
          <li
            key={approval.interruptId}
            className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-4"
            data-testid="slowest-approval"
            data-interrupt-id={approval.interruptId}
            data-session-id={approval.sessionId}
            data-tool={approval.toolName}
          >
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-pretty">{approval.message}</p>
              <p className="mt-0.5 text-xs text-muted-foreground">
                <span className="font-mono">{approval.toolName}</span> · {approval.agent} · asked <LocalTime iso={approval.openedAt} />
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-1">
              <Badge tone="attention" className="mr-1">
                <span className="sr-only">Waiting </span>
                <span data-testid="slowest-waiting" data-value={approval.waitingMs}>
                  {formatElapsed(approval.waitingMs)}
                </span>
              </Badge>
              {approval.ownSession && (
                <Button asChild variant="ghost" size="sm">
                  <Link href={`/agents/${encodeURIComponent(approval.sessionAgent)}/${encodeURIComponent(approval.sessionId)}`} data-testid="slowest-chat-link">
                    <MessageSquareIcon aria-hidden />
                    Open chat
                  </Link>
                </Button>
              )}
              <Button asChild variant="ghost" size="sm">
                <Link href={`/studio?decision=${encodeURIComponent(approval.interruptId)}`} data-testid="slowest-inbox-link">
                  <InboxIcon aria-hidden />
                  Decide
                </Link>
              </Button>
            </div>
          </li>
        ))}
      </ol>
      {pending > approvals.length && (
        <p className="mt-2 text-xs text-muted-foreground">
          The {approvals.length} longest of {pending} waiting; the{' '}
          <Link href="/studio" className="underline underline-offset-2">
            inbox
          </Link>{' '}
          lists them all.
        </p>
      )}
    </>
  );
}
