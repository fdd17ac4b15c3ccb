'use client';
// The owner's recent conversations across agents, newest first: the server's first paint, kept
// fresh by TanStack Query (components/hooks/lists.ts).
import { ChevronRightIcon, MessageSquareIcon } from 'lucide-react';
import Link from 'next/link';
import type { SessionSummary } from '@/server/web/sessions';
import { withoutVersions } from './thread-lineage';
import { displayNameOf } from './agent-name';
import { useSessions } from './hooks/lists';
import { LocalTime } from './local-time';
import { sessionStatusLabel } from './session-status';
import { Badge } from './ui/badge';

export function SessionList({ sessions: initial, agents }: { sessions: SessionSummary[]; agents: { name: string; displayName?: string }[] }) {
  const sessions = withoutVersions(useSessions({ limit: 20 }, initial).data);
  if (sessions.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
        <MessageSquareIcon className="size-5" aria-hidden />
        <p>No conversations yet. Pick an agent above to start one; it will be listed here.</p>
      </div>
    );
  }
  const agentName = (name: string) => displayNameOf(agents.find((agent) => agent.name === name) ?? { name });
  return (
    <ul className="divide-y overflow-hidden rounded-lg border bg-card" data-testid="session-list">
      {sessions.map((session) => {
        const status = sessionStatusLabel(session.status);
        return (
          <li key={session.id}>
            <Link
              href={`/agents/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.id)}`}
              className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-accent/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              data-testid="session-link"
            >
              <span className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="truncate text-sm font-medium">{session.title}</span>
                <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
                  <span>{agentName(session.agent)}</span>
                  <span aria-hidden>·</span>
                  <LocalTime iso={session.updatedAt} />
                  {status && (
                    <Badge tone={status.tone} data-testid="session-status" data-status={session.status}>
                      {status.label}
                    </Badge>
                  )}
                </span>
              </span>
              <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
