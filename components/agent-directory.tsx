'use client';
// The home page's agent cards: what each agent does, a couple of things to ask it, and a link
// to start a chat.
import { ArrowRightIcon } from 'lucide-react';
import Link from 'next/link';
import type { AgentCard } from '@/server/web/agents';
import { displayNameOf } from './agent-name';
import { useAgentCards } from './hooks/lists';

export function AgentDirectory({ agents: initial }: { agents: AgentCard[] }) {
  const agents = useAgentCards(initial).data;
  if (agents.length === 0) {
    return (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
        No agents yet. <code>npm run agent:new -- my-agent</code> writes one in server/agents/ and lists it (docs/make-it-yours.md).
      </p>
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
      {agents.map((agent) => {
        const name = displayNameOf(agent);
        return (
          <li key={agent.name} className="flex">
            <Link
              href={`/agents/${encodeURIComponent(agent.name)}`}
              className="group flex w-full flex-col gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs transition-colors hover:border-primary/40 hover:bg-accent/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              data-testid={`agent-card-${agent.name}`}
            >
              <span className="flex items-center gap-3">
                <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-sm font-semibold text-primary" aria-hidden>
                  {name.charAt(0)}
                </span>
                <span className="min-w-0 flex-1 truncate font-semibold">{name}</span>
                <ArrowRightIcon
                  className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-foreground"
                  aria-hidden
                />
              </span>
              <span className="text-sm text-pretty text-muted-foreground">{agent.description || 'No description.'}</span>
              {agent.suggestions.length > 0 && (
                <span className="mt-auto flex flex-col gap-1.5 border-t pt-3 text-xs text-muted-foreground">
                  <span className="font-medium text-foreground">Try asking</span>
                  {agent.suggestions.slice(0, 2).map((example) => (
                    <span key={example} className="truncate rounded-md bg-muted px-2 py-1">
                      {example}
                    </span>
                  ))}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
