'use client';
// The agent's recent conversations and "New chat", like a chat app's history rail: a column
// beside the chat on wide screens, a drawer opened from the chat's header on phones.
import { GitBranchIcon, MenuIcon, PlusIcon } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import type { SessionSummary } from '@/server/web/sessions';
import { useSessions } from './hooks/lists';
import { withForksUnderParents, withoutVersions } from './thread-lineage';
import { LocalTime } from './local-time';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { Sheet, SheetContent, SheetTrigger } from './ui/sheet';

interface ThreadLink {
  id: string;
  title: string;
  updatedAt: string;
  parentId: string | null;
  versionOf?: string;
}

export interface ThreadSidebarProps {
  agent: string;
  threads: SessionSummary[];
}

/** The column beside the chat, from the md breakpoint up. */
export function ThreadSidebar(props: ThreadSidebarProps) {
  return (
    <nav className="hidden w-64 shrink-0 flex-col border-r bg-muted/40 md:flex" aria-label="Conversations" data-testid="thread-sidebar">
      <ThreadList {...props} />
    </nav>
  );
}

/** The same list in a drawer, for phones: its button sits at the start of the chat's header. */
export function ThreadDrawer(props: ThreadSidebarProps) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon-sm" className="md:hidden" aria-label="Conversations" data-testid="drawer-button">
          <MenuIcon aria-hidden />
        </Button>
      </SheetTrigger>
      <SheetContent title="Conversations" data-testid="thread-drawer">
        <ThreadList {...props} onNavigate={() => setOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}

function ThreadList({ agent, threads: initial, onNavigate }: ThreadSidebarProps & { onNavigate?: () => void }) {
  const pathname = usePathname();
  // Kept fresh by TanStack Query; the open chat invalidates it when its thread changes.
  const threads: ThreadLink[] = useSessions({ agent, limit: 30 }, initial).data;
  const base = `/agents/${encodeURIComponent(agent)}`;
  const openVersionOf = threads.find((thread) => pathname === `${base}/${encodeURIComponent(thread.id)}`)?.versionOf;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3">
      <Button asChild variant="primary" className="w-full">
        <Link href={base} data-testid="new-chat" onClick={onNavigate}>
          <PlusIcon aria-hidden /> New chat
        </Link>
      </Button>
      <h2 className="px-2 text-xs font-medium text-muted-foreground">Recent</h2>
      {threads.length === 0 ? (
        <p className="px-2 text-sm text-muted-foreground">No conversations yet. Start one with New chat.</p>
      ) : (
        <ul className="-mx-1 min-h-0 flex-1 space-y-0.5 overflow-y-auto px-1" data-testid="thread-list">
          {withForksUnderParents(withoutVersions(threads)).map(({ thread, depth }) => {
            const href = `${base}/${encodeURIComponent(thread.id)}`;
            // A version open on screen is its original's conversation.
            const current = pathname === href || openVersionOf === thread.id;
            return (
              <li key={thread.id} style={depth ? { paddingInlineStart: `${Math.min(depth, 3) * 0.75}rem` } : undefined} data-fork={depth > 0 || undefined}>
                <Link
                  href={href}
                  onClick={onNavigate}
                  aria-current={current ? 'page' : undefined}
                  className={cn('block rounded-md px-2 py-1.5 hover:bg-accent', current && 'bg-accent font-medium')}
                  data-testid="sidebar-thread"
                  title={thread.title}
                >
                  <span className="flex items-center gap-1 text-sm">
                    {depth > 0 && <GitBranchIcon className="size-3 shrink-0 text-muted-foreground" aria-label="Fork of the thread above" />}
                    <span className="truncate">{thread.title}</span>
                  </span>
                  <LocalTime iso={thread.updatedAt} className="block text-xs text-muted-foreground" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
