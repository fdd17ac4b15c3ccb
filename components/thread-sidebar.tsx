'use client';
// The agent's recent conversations and a "New chat" link, like a chat app's history rail.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { SessionSummary } from '@/server/web/sessions';
import { useSessions } from './hooks/lists';

interface ThreadLink {
  id: string;
  title: string;
  updatedAt: string;
}

export function ThreadSidebar({ agent, threads: initial }: { agent: string; threads: SessionSummary[] }) {
  const pathname = usePathname();
  // Kept fresh by TanStack Query; the open chat invalidates it when its thread changes.
  const threads: ThreadLink[] = useSessions({ agent, limit: 30 }, initial).data;
  const base = `/agents/${encodeURIComponent(agent)}`;
  return (
    <nav className="sidebar" aria-label="Conversations" data-testid="thread-sidebar">
      <Link href={base} className="button button-primary sidebar-new" data-testid="new-chat">
        + New chat
      </Link>
      <div className="sidebar-label">Recent</div>
      {threads.length === 0 ? (
        <p className="sidebar-empty">No conversations yet.</p>
      ) : (
        <ul className="sidebar-list">
          {threads.map((thread) => {
            const href = `${base}/${encodeURIComponent(thread.id)}`;
            return (
              <li key={thread.id}>
                <Link
                  href={href}
                  className={pathname === href ? 'sidebar-item sidebar-item-active' : 'sidebar-item'}
                  data-testid="sidebar-thread"
                  title={thread.title}
                >
                  <span className="sidebar-item-title">{thread.title}</span>
                  <time className="sidebar-item-time" dateTime={thread.updatedAt}>
                    {shortDate(thread.updatedAt)}
                  </time>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

/** Locale-free and the same on server and client, so hydration never disagrees. */
function shortDate(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}
