// Which thread of which agent a useAgent call is about, named the way our pages name it
// (`{agent, threadId}`) or the way experimental-a2's examples do (`{api, id}`: the route the
// agent is served at, and the session's id) — docs/hitl.md, "The a2 names".
import type { AgentStoreOptions } from './agent-store';

export type ThreadAddress =
  /** The agent's name, the thread's id; `url` defaults to the agent's route, /api/agents/{agent}. */
  | { agent: string; threadId: string; url?: string; api?: never; id?: never }
  /** The agent's AG-UI route (/api/agents/{name}) and the session's id. */
  | { api: string; id: string; agent?: never; threadId?: never; url?: never };

/** The store's address for a thread named either way. */
export function storeAddress(address: ThreadAddress): Pick<AgentStoreOptions, 'agent' | 'threadId' | 'url'> {
  if (address.api === undefined) return { agent: address.agent, threadId: address.threadId, url: address.url };
  return { agent: agentOfRoute(address.api), threadId: address.id, url: address.api };
}

/**
 * The agent a route serves: `{name}` of /api/agents/{name}. A route of another shape (an app's
 * own, re-exporting the handler) names it by its last path segment.
 */
function agentOfRoute(api: string): string {
  const path = api.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const served = /\/api\/agents\/([^/]+)$/.exec(path);
  return decodeURIComponent(served?.[1] ?? path.slice(path.lastIndexOf('/') + 1));
}
