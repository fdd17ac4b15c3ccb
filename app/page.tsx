import Link from 'next/link';
import { AgentDirectory } from '@/components/agent-directory';
import { PageFrame, PageHeader } from '@/components/page-frame';
import { SessionList } from '@/components/session-list';
import { pageOwner } from '@/server/identity/page-owner';
import { agentCards } from '@/server/web/agents';
import { recentSessions } from '@/server/web/sessions';

export default async function HomePage() {
  const owner = await pageOwner();
  const sessions = owner === null ? [] : await recentSessions(owner, { limit: 20 });
  const agents = await agentCards();
  return (
    <PageFrame>
      <PageHeader title="Agents" description="Pick an agent to start a conversation. It asks before doing anything that needs your approval." />
      <AgentDirectory agents={agents} />
      <section className="mt-10 sm:mt-12" aria-labelledby="recent-title">
        <h2 id="recent-title" className="mb-3 text-lg font-semibold tracking-tight">
          Recent conversations
        </h2>
        {owner === null ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            <Link href="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
              Sign in
            </Link>{' '}
            with an API key to see your conversations.
          </p>
        ) : (
          <SessionList sessions={sessions} agents={agents} />
        )}
      </section>
    </PageFrame>
  );
}
