'use client';
// A chat on a thread that does not exist yet. The browser picks the thread id; once the
// first run has started (the server now has the thread) the address becomes the thread's
// own, /agents/{name}/{threadId}, without a navigation that would cut the stream.
import { randomUUID } from '@ag-ui/client';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Chat, type ChatAgent } from './chat';

interface Thread {
  id: string;
  /** The address this thread moved to, once it did. */
  path: string | null;
  /** usePathname has caught up with the move (Next applies replaceState in a transition). */
  arrived: boolean;
}

const freshThread = (): Thread => ({ id: randomUUID(), path: null, arrived: false });

export function NewChat({ agent, navigation }: { agent: ChatAgent; navigation?: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const base = `/agents/${encodeURIComponent(agent.name)}`;
  // Not rendered into the page, so the server's and the browser's ids need not agree.
  const [thread, setThread] = useState(freshThread);

  if (thread.path !== null && !thread.arrived && pathname === thread.path) {
    setThread({ ...thread, arrived: true });
  } else if (thread.arrived && pathname === base) {
    // "New chat" clicked after the move: Next re-renders this same page for
    // /agents/{name}, so start over on a fresh thread instead of showing the old one.
    setThread(freshThread());
  }

  // Back/forward to another thread's address can land on this page's tree (it owned the
  // history entry when the address was replaced): let the server render that thread.
  const strayed = thread.arrived && pathname !== thread.path && pathname !== base;
  useEffect(() => {
    if (strayed) router.refresh();
  }, [strayed, router]);

  const onThreadStarted = useCallback(() => {
    const path = `${base}/${encodeURIComponent(thread.id)}`;
    // Next keeps its router (usePathname, back/forward) in step with history.replaceState.
    window.history.replaceState(null, '', path);
    setThread((current) => (current.id === thread.id ? { ...current, path } : current));
  }, [base, thread.id]);

  return <Chat key={thread.id} agent={agent} threadId={thread.id} onThreadStarted={onThreadStarted} navigation={navigation} />;
}
