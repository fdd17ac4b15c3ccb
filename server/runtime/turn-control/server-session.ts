// Trusted server code adding to a session: a webhook, a job, a script (docs/turn-control.md,
// "Server append"). `session(agent, threadId, {ownerId}).append(...)` takes a turn on the session as
// any client would — same log, same run, same rules — so every open tab sees it live on the
// session stream. Unlike a browser, trusted code may add system notes as well as user messages.
import { provideServerSessions, type DeepAgent, type ServerSessionOptions } from '../../authoring';
import type { ChatMessage } from '../../store/messages';
import { LOCAL_OWNER, isOpenDevMode } from '../../credentials/open-dev-mode';
import { getStore } from '../../store';
import type { EventStore } from '../../store/types';
import { openSession, scopedSessionId } from '../session';
import type { StartedRun } from '../turn';
import { startRun } from './turns';

export { systemNote, userMessage } from '../session';

/** An agent's session as trusted code reaches it (define.ts names the same, with less of the run). */
export interface ServerSession {
  /** Appends messages and runs the agent on them (define.ts, ServerSession); null when none is new. */
  append: (...messages: ChatMessage[]) => Promise<StartedRun | null>;
}

/** The session `threadId` of `ownerId` (the key its clients name it by), as trusted code appends to it. */
export function session(agent: DeepAgent, threadId: string, options: ServerSessionOptions = {}): ServerSession {
  return {
    append: async (...messages) => {
      const ownerId = trustedOwner(options.ownerId);
      return appendToSession({ agent, store: options.store ?? getStore(), sessionId: scopedSessionId(ownerId, threadId), ownerId }, messages);
    },
  };
}

/**
 * Whose session trusted code means when it names no owner: in open dev mode every session is the
 * one local owner's (docs/security.md, "Modes"); with keys there are many owners, and guessing
 * one would write into a stranger's conversation.
 */
function trustedOwner(ownerId: string | undefined): string {
  if (ownerId !== undefined) return ownerId;
  if (isOpenDevMode()) return LOCAL_OWNER;
  throw new Error(`session(...): name the session's owner ({ownerId}); only open dev mode (no STACKBONE_API_KEYS) has one owner to default to.`);
}

/** Trusted messages into a stored session, named by its stored id (a timer firing comes through here). */
export async function appendToSession(
  target: { agent: DeepAgent; store: EventStore; sessionId: string; ownerId: string },
  messages: ChatMessage[],
): Promise<StartedRun | null> {
  const { agent, store, sessionId, ownerId } = target;
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const known = new Set(view.messages.map((message) => message.id));
  if (messages.every((message) => known.has(message.id))) return null;
  return startRun({ agent, store, sessionId, ownerId, source: 'server', messages, queue: 'running-or-waiting' });
}

// Every agent's session() appends through here (define.ts cannot import the runtime).
provideServerSessions(session);
