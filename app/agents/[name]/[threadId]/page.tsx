import type { Metadata } from 'next';
import { displayNameOf } from '@/components/agent-name';
import { notFound, redirect } from 'next/navigation';
import { Chat } from '@/components/chat';
import { ThreadDrawer, ThreadSidebar } from '@/components/thread-sidebar';
import { pageOwner } from '@/server/identity/page-owner';
import { findAgentCard } from '@/server/web/agents';
import { loadThread, recentSessions } from '@/server/web/sessions';

type Params = Promise<{ name: string; threadId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const agent = await findAgentCard((await params).name);
  return { title: `Chat with ${agent ? displayNameOf(agent) : (await params).name}` };
}

// First paint of a thread from the server's log; the Chat's hook continues from it.
export default async function ThreadPage({ params }: { params: Params }) {
  const { name, threadId } = await params;
  const agent = await findAgentCard(name);
  if (!agent) notFound();
  const owner = await pageOwner();
  const thread = await loadThread(agent.name, threadId, owner);
  if (thread.kind === 'not_found' || owner === null) notFound();
  if (thread.kind === 'elsewhere') redirect(`/agents/${encodeURIComponent(thread.agent)}/${encodeURIComponent(threadId)}`);
  const threads = await recentSessions(owner, { agent: agent.name, limit: 30 });
  return (
    <div className="flex min-h-0 flex-1">
      <ThreadSidebar agent={agent.name} threads={threads} />
      <Chat
        key={threadId}
        agent={agent}
        threadId={threadId}
        navigation={<ThreadDrawer agent={agent.name} threads={threads} />}
        initialMessages={thread.messages}
        initialState={thread.state}
        initialError={thread.error}
        initialInterrupts={thread.interrupts}
        interruptedRunId={thread.interruptedRunId}
        activeRunId={thread.activeRunId}
        cursor={thread.cursor}
        initialQueue={thread.queue}
        initialDecisions={thread.decisions}
        initialStoppedToolCallIds={thread.stoppedToolCallIds}
        initialFailedReplies={thread.failedReplies}
        initialCompactions={thread.compactions}
        initialModel={thread.model}
        parent={thread.parent}
        inheritedToolCallIds={thread.inheritedToolCallIds}
        undoOffers={thread.undoOffers}
        versions={thread.versions}
      />
    </div>
  );
}
