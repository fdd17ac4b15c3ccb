'use client';
// A session's audit trail in Studio (docs/studio.md): every message, tool call, pause and
// decision in order, with who decided, from where and when, and the arguments as proposed and
// as approved; a message's text as markdown (components/markdown.tsx). Live through the Studio
// feed; exportable as the JSON the server keeps.
import { useQuery } from '@tanstack/react-query';
import {
  ActivityIcon,
  CornerDownRightIcon,
  DatabaseIcon,
  DownloadIcon,
  FoldVerticalIcon,
  GitBranchIcon,
  HandIcon,
  KeyRoundIcon,
  ListTreeIcon,
  MessageSquareIcon,
  PlayIcon,
  TriangleAlertIcon,
  UserCheckIcon,
  WrenchIcon,
  type LucideIcon,
} from 'lucide-react';
import Link from 'next/link';
import type { SessionStatus } from '@/server/store';
import type { AuditEntry } from '@/server/web/audit-trail';
import { displayNameOf } from '../agent-name';
import { LocalTime } from '../local-time';
import { Markdown } from '../markdown';
import { sessionStatusLabel } from '../session-status';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { fetchAuditTrail, studioFetch, StudioError } from './studio-api';
import { SessionGrants } from './session-grants';
import { StudioSignIn } from './studio-sign-in';
import { useStudioFeed } from './use-studio-feed';

type AuditKind = AuditEntry['kind'];

/** Each kind of entry as a person calls it, its icon, and how much it stands out. */
const KIND: Record<AuditKind, { label: string; icon: LucideIcon; tone?: string }> = {
  run: { label: 'Run', icon: PlayIcon },
  message: { label: 'Message', icon: MessageSquareIcon },
  'tool-call': { label: 'Tool call', icon: WrenchIcon },
  'tool-result': { label: 'Tool result', icon: CornerDownRightIcon },
  progress: { label: 'Progress', icon: ActivityIcon },
  pause: { label: 'Waiting for a decision', icon: HandIcon, tone: 'border-attention-border bg-attention text-warning' },
  decision: { label: 'Decision', icon: UserCheckIcon, tone: 'border-success/40 bg-success/10 text-success' },
  grant: { label: 'Grant', icon: KeyRoundIcon, tone: 'border-success/40 bg-success/10 text-success' },
  state: { label: 'Shared state', icon: DatabaseIcon },
  step: { label: 'Step', icon: ListTreeIcon },
  context: { label: 'Context compacted', icon: FoldVerticalIcon },
  error: { label: 'Error', icon: TriangleAlertIcon, tone: 'border-destructive/40 bg-destructive/10 text-destructive' },
};

const LINEAGE: Record<string, string> = { fork: 'Forked from', edit: 'Edited and resent from', regenerate: 'Regenerated from' };

export function AuditTrailView({ sessionId, agents }: { sessionId: string; agents: { name: string; displayName?: string }[] }) {
  useStudioFeed();
  const trail = useQuery({ queryKey: ['studio', 'audit', sessionId], queryFn: () => fetchAuditTrail(sessionId) });

  async function download() {
    const response = await studioFetch(`/api/studio/sessions/${encodeURIComponent(sessionId)}?download=1`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `stackbone-audit-${sessionId}.json`;
    link.click();
    URL.revokeObjectURL(url);
  }

  if (trail.error instanceof StudioError && trail.error.code === 'unauthorized')
    return <StudioSignIn next={`/studio/sessions/${encodeURIComponent(sessionId)}`} />;
  if (trail.error) {
    return (
      <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
        {trail.error instanceof StudioError && trail.error.status === 404
          ? `There is no conversation “${sessionId}” of yours here.`
          : `Could not load the audit trail: ${trail.error.message}`}
      </p>
    );
  }
  if (!trail.data) return <p className="py-8 text-center text-sm text-muted-foreground">Loading the audit trail…</p>;
  const { session, entries, lineage } = trail.data;
  const status = sessionStatusLabel(session.status as SessionStatus);
  const agent = agents.find((card) => card.name === session.agent) ?? { name: session.agent };
  return (
    <section aria-labelledby="audit-title" data-testid="audit-trail">
      <div className="mb-6 flex flex-col gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id="audit-title" className="text-base font-semibold break-words">
            {session.title ?? 'Untitled conversation'}
          </h2>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
            <span>{displayNameOf(agent)}</span>
            <span aria-hidden>·</span>
            <span>
              Started <LocalTime iso={session.createdAt} />
            </span>
            {status && <Badge tone={status.tone}>{status.label}</Badge>}
          </p>
        </div>
        <div className="flex gap-2">
          <Button asChild variant="secondary" size="sm">
            <Link href={`/agents/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.id)}`} data-testid="audit-chat-link">
              <MessageSquareIcon aria-hidden />
              Open chat
            </Link>
          </Button>
          <Button variant="secondary" size="sm" onClick={() => void download()} data-testid="audit-export">
            <DownloadIcon aria-hidden />
            Export JSON
          </Button>
        </div>
      </div>
      {(lineage.parent || lineage.forks.length > 0) && (
        <nav aria-label="Lineage" className="mb-6 space-y-1 text-sm" data-testid="audit-lineage">
          {lineage.parent && (
            <p>
              <GitBranchIcon className="mr-1 inline size-3.5 text-muted-foreground" aria-hidden />
              {LINEAGE[lineage.parent.mode] ?? 'Forked from'}{' '}
              <Link className="underline underline-offset-2" href={`/studio/sessions/${encodeURIComponent(lineage.parent.id)}`}>
                its parent thread
              </Link>
            </p>
          )}
          {lineage.forks.length > 0 && (
            <p>
              Forks:{' '}
              {lineage.forks.map((fork, index) => (
                <span key={fork.id}>
                  {index > 0 && ', '}
                  <Link className="underline underline-offset-2" href={`/studio/sessions/${encodeURIComponent(fork.id)}`}>
                    {fork.title ?? fork.id}
                  </Link>{' '}
                  (<LocalTime iso={fork.createdAt} />)
                </span>
              ))}
            </p>
          )}
        </nav>
      )}
      <SessionGrants sessionId={session.id} />
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
          Nothing has happened in this conversation yet. Send it a message and each step will be listed here.
        </p>
      ) : (
        <ol>
          {entries.map((entry) => (
            <AuditRow key={`${entry.seq}-${entry.kind}-${entry.summary}`} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const kind = KIND[entry.kind] ?? { label: entry.kind, icon: ActivityIcon };
  const Icon = kind.icon;
  return (
    <li className="group flex gap-3" data-testid="audit-entry" data-kind={entry.kind} data-source={entry.actor?.source}>
      <div className="flex flex-col items-center">
        <span className={cn('grid size-7 shrink-0 place-items-center rounded-full border bg-card text-muted-foreground', kind.tone)} aria-hidden>
          <Icon className="size-3.5" />
        </span>
        <span className="w-px flex-1 bg-border group-last:hidden" aria-hidden />
      </div>
      <div className="min-w-0 flex-1 pt-1 pb-5 group-last:pb-0">
        <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted-foreground">
          <span className="font-medium text-foreground">
            {kind.label}
            {entry.message && ` · ${entry.message.from}`}
          </span>
          <LocalTime iso={entry.at} seconds />
        </p>
        {entry.message ? (
          <Markdown className="mt-0.5 text-sm [overflow-wrap:anywhere]" text={entry.message.text} />
        ) : (
          <p className="mt-0.5 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="audit-summary">
            {entry.summary}
          </p>
        )}
        {entry.actor && (
          <p className="mt-1 text-xs text-muted-foreground" data-testid="audit-actor">
            by {entry.actor.who} · from {entry.actor.surface}
          </p>
        )}
        {entry.details && Object.keys(entry.details).length > 0 && (
          <details className="mt-1.5 text-xs">
            <summary className="w-fit cursor-pointer rounded text-muted-foreground select-none hover:text-foreground">Details</summary>
            <pre className="mt-1.5 max-h-80 overflow-auto rounded-md border bg-muted p-2 font-mono text-xs">{JSON.stringify(entry.details, null, 2)}</pre>
          </details>
        )}
      </div>
    </li>
  );
}
