'use client';
// The app's lists through TanStack Query: the server renders the first paint (initialData),
// the queries keep it fresh. A chat invalidates ['sessions'] when its thread changes (a run
// starts or ends), so the history rail and the home page show the latest at once.
import { useQuery } from '@tanstack/react-query';
import type { AgentCard } from '@/server/web/agents';
import type { SessionSummary } from '@/server/web/sessions';

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json() as Promise<T>;
}

export function useSessions(options: { agent?: string; limit: number }, initialData: SessionSummary[]) {
  const query = new URLSearchParams({ limit: String(options.limit), ...(options.agent ? { agent: options.agent } : {}) });
  return useQuery({
    queryKey: ['sessions', options.agent ?? 'all', options.limit],
    queryFn: async () => (await getJson<{ sessions: SessionSummary[] }>(`/api/sessions?${query}`)).sessions,
    initialData,
    // The server's first paint is fresh; the next read comes with the first invalidation.
    staleTime: 5_000,
  });
}

export function useAgentCards(initialData: AgentCard[]) {
  return useQuery({
    queryKey: ['agents'],
    queryFn: async () => (await getJson<{ agents: AgentCard[] }>('/api/agents')).agents,
    initialData,
    staleTime: 60_000,
  });
}
