import type { Metadata } from 'next';
import { displayNameOf } from '@/components/agent-name';
import { notFound } from 'next/navigation';
import { NewChat } from '@/components/new-chat';
import { ThreadDrawer, ThreadSidebar } from '@/components/thread-sidebar';
import { pageOwner } from '@/server/identity/page-owner';
import { findAgentCard } from '@/server/web/agents';
import { recentSessions } from '@/server/web/sessions';

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const agent = await findAgentCard((await params).name);
  return { title: `New chat with ${agent ? displayNameOf(agent) : (await params).name}` };
}

export default async function NewChatPage({ params }: { params: Params }) {
  const { name } = await params;
  const agent = await findAgentCard(name);
  if (!agent) notFound();
  const owner = await pageOwner();
  const threads = owner === null ? [] : await recentSessions(owner, { agent: agent.name, limit: 30 });
  return (
    <div className="flex min-h-0 flex-1">
      <ThreadSidebar agent={agent.name} threads={threads} />
      <NewChat agent={agent} navigation={<ThreadDrawer agent={agent.name} threads={threads} />} />
    </div>
  );
}
