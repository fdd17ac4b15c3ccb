// The owner's recent conversations across agents, newest first.
import Link from 'next/link';

export interface SessionListEntry {
  id: string;
  agent: string;
  title: string;
  status: string;
  updatedAt: string;
}

export function SessionList({ sessions }: { sessions: SessionListEntry[] }) {
  if (sessions.length === 0) return <p className="muted">No conversations yet. Pick an agent to start one.</p>;
  return (
    <ul className="session-list" data-testid="session-list">
      {sessions.map((session) => (
        <li key={session.id}>
          <Link
            href={`/agents/${encodeURIComponent(session.agent)}/${encodeURIComponent(session.id)}`}
            className="session-row"
            data-testid="session-link"
          >
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
