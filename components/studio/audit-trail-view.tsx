'use client';
// A session's audit trail in Studio (docs/studio.md): every message, tool call, pause and
// decision in order, with who decided, from where and when, and the arguments as proposed and
// as approved. Live through the Studio feed; exportable as the JSON the server keeps.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { AuditEntry } from '@/server/web/audit-trail';
import { fetchAuditTrail, studioFetch, StudioError } from './studio-api';
import { StudioKeyForm } from './studio-key-form';
import { useStudioFeed } from './use-studio-feed';

export function AuditTrailView({ sessionId }: { sessionId: string }) {
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

  if (trail.error instanceof StudioError && trail.error.code === 'unauthorized') return <StudioKeyForm />;
  if (trail.error) {
    return (
      <p className="chat-error" role="alert">
        {trail.error instanceof StudioError && trail.error.status === 404
          ? `No session “${sessionId}”.`
          : `Could not load the audit trail: ${trail.error.message}`}
      </p>
    );
  }
  if (!trail.data) return <p className="studio-empty">Loading…</p>;
  const { session, entries } = trail.data;
  return (
    <section className="studio-audit" aria-labelledby="audit-title" data-testid="audit-trail">
      <div className="studio-toolbar">
        <h2 id="audit-title" className="studio-section-title">
          {session.title ?? 'Untitled session'} <span className="studio-agent">{session.agent}</span>
        </h2>
        <Link href={`/agents/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.id)}`} className="button" data-testid="audit-chat-link">
          Open chat
        </Link>
        <button type="button" className="button" onClick={() => void download()} data-testid="audit-export">
          Export JSON
        </button>
      </div>
      <ol className="audit-list">
        {entries.map((entry) => (
          <AuditRow key={`${entry.seq}-${entry.kind}-${entry.summary}`} entry={entry} />
        ))}
      </ol>
    </section>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <li className={`audit-entry audit-entry-${entry.kind}`} data-testid="audit-entry" data-kind={entry.kind} data-source={entry.actor?.source}>
      <time className="audit-time" dateTime={entry.at}>
        {new Date(entry.at).toLocaleTimeString()}
      </time>
      <span className="audit-kind">{entry.kind.replace('-', ' ')}</span>
      <div className="audit-body">
        <p className="audit-summary">{entry.summary}</p>
        {entry.actor && (
          <p className="audit-actor" data-testid="audit-actor">
            by {entry.actor.who} · from {entry.actor.surface}
          </p>
        )}
        {entry.details && Object.keys(entry.details).length > 0 && (
          <details className="audit-details">
            <summary>Details</summary>
            <pre className="tool-call-json">{JSON.stringify(entry.details, null, 2)}</pre>
          </details>
        )}
      </div>
    </li>
  );
}
