'use client';
// The home page's agent cards: what each agent does, and a link to start a chat.
import Link from 'next/link';
import type { AgentCard } from '@/server/web/agents';
import { useAgentCards } from './hooks/lists';

interface AgentDirectoryEntry {
  name: string;
  description: string;
  scripted: boolean;
  suggestions: string[];
}

export function AgentDirectory({ agents: initial }: { agents: AgentCard[] }) {
  const agents: AgentDirectoryEntry[] = useAgentCards(initial).data;
  return (
    <ul className="agent-grid">
      {agents.map((agent) => (
        <li key={agent.name}>
          <Link href={`/agents/${encodeURIComponent(agent.name)}`} className="agent-card" data-testid={`agent-card-${agent.name}`}>
            <span className="agent-card-name">{agent.name}</span>
            <span className="agent-card-description">{agent.description || 'No description.'}</span>
            {agent.suggestions.length > 0 && (
              <span className="agent-card-examples">
                Try:{' '}
                {agent.suggestions
                  .slice(0, 2)
                  .map((example) => `“${example}”`)
                  .join(' · ')}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
