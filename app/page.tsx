import { AgentDirectory } from '@/components/agent-directory';
import { SessionList } from '@/components/session-list';
import { pageOwner } from '@/server/identity/page-owner';
import { agentCards } from '@/server/web/agents';
import { recentSessions } from '@/server/web/sessions';

export default async function HomePage() {
  const owner = await pageOwner();
  const sessions = owner === null ? [] : await recentSessions(owner, { limit: 20 });
  return (
    <div className="home">
      <section className="home-section">
        <h1 className="home-title">Agents</h1>
        <AgentDirectory agents={agentCards()} />
      </section>
      <section className="home-section">
        <h2 className="home-subtitle">Recent conversations</h2>
        {owner === null ? <p className="muted">Sign in with an API key to see conversations.</p> : <SessionList sessions={sessions} />}
      </section>
    </div>
  );
}
