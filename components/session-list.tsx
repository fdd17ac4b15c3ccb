'use client';
// The owner's recent conversations across agents, newest first: the server's first paint, kept
// fresh by TanStack Query (components/hooks/lists.ts).
import Link from 'next/link';
import type { SessionSummary } from '@/server/web/sessions';
import { useSessions } from './hooks/lists';

export function SessionList({ sessions: initial }: { sessions: SessionSummary[] }) {
  const sessions = useSessions({ limit: 20 }, initial).data;
  if (sessions.length === 0) return <p className="muted">No conversations yet. Pick an agent to start one.</p>;
  return (
    <ul className="session-list" data-testid="session-list">
      {sessions.map((session) => (
        <li key={session.id}>
          <Link href={`/agents/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.id)}`} className="session-row" data-testid="session-link">
            <span className="session-agent">{session.agent}</span>
            <span className="session-title">{session.title}</span>
            {session.status !== 'idle' && <span className={`session-status session-status-${session.status}`}>{session.status.replace('_', ' ')}</span>}
            <time className="session-time" dateTime={session.updatedAt}>
              {session.updatedAt.slice(0, 16).replace('T', ' ')}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}
