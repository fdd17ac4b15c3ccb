// Whose session this is: the one ownership rule every surface applies — the runtime, the wires,
// the web pages and Studio (docs/security.md, "Owners"). A session is its owner's; another owner,
// and a caller that addressed another agent, finds nothing. Both fail the same way, the 404
// `not_found`, so a session id reveals nothing about whether it exists.
import type { SessionRecord, EventStore } from '../../store/types';
import { Refusal } from '../errors';
import { sessionKeyOf } from './session-id';

export interface SessionCaller {
  /** The session's stored id (owner-scoped: session-id.ts). */
  sessionId: string;
  ownerId: string;
  /** The agent the caller addressed, if it named one: a session of another agent is not found. */
  agent?: string;
}

/** Whether `caller` may see `session`: it exists, it is theirs and, if they named an agent, that agent's. */
export function isOwnSession(session: SessionRecord | null | undefined, caller: Omit<SessionCaller, 'sessionId'>): session is SessionRecord {
  return !!session && session.ownerId === caller.ownerId && (!caller.agent || session.agent === caller.agent);
}

/** The one failure for a session that is not there or not the caller's. */
export function sessionNotFound(caller: Pick<SessionCaller, 'sessionId' | 'agent'>): Refusal {
  return new Refusal('not_found', `No session "${sessionKeyOf(caller.sessionId)}"${caller.agent ? ` for agent "${caller.agent}"` : ''}.`, { what: 'session' });
}

/** The session `caller` names, if it is theirs; otherwise sessionNotFound() is thrown. */
export async function ownedSession(store: EventStore, caller: SessionCaller): Promise<SessionRecord> {
  const session = await store.getSession(caller.sessionId);
  if (!isOwnSession(session, caller)) throw sessionNotFound(caller);
  return session;
}
