// Trusted server code adding to a session: a webhook, a job, a script (docs/turn-control.md,
// "Server append"). `session(agent, threadId, {ownerId}).append(...)` takes a turn on the session as
// any client would — same log, same run, same rules — so every open tab sees it live on the
// session stream. Unlike a browser, trusted code may add system notes as well as user messages.
import type { DeepAgent } from '../define';
import type { ChatMessage } from '../events';
import { LOCAL_OWNER, isOpenDevMode } from '../open-dev-mode';
import { getStore } from '../store';
import type { EventStore } from '../store/types';
import { startRun, type StartedRun } from './start-run';
import { openSession } from './views';
import { scopedSessionId } from './session-id';

export { systemNote, userMessage } from './inputs';

export interface ServerSession {
  /**
   * Appends messages and runs the agent on them. The run belongs to the session and goes on
   * without a reader (keep `done` alive on a serverless host). While another run holds the
   * session or a decision is pending, the messages are queued and go out when the session falls
   * idle (`queued` says so; the run is theirs, from then on).
   * A message id the session has is not added again: when none is new (a webhook its sender
   * delivered twice), nothing runs and the answer is null.
   */
  append: (...messages: ChatMessage[]) => Promise<StartedRun | null>;
}

export interface ServerSessionOptions {
  /** Whose session: the owner its clients act as. Only open dev mode may leave it out (see trustedOwner). */
  ownerId?: string;
  store?: EventStore;
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
export async function appendToSession(target: { agent: DeepAgent; store: EventStore; sessionId: string; ownerId: string }, messages: ChatMessage[]): Promise<StartedRun | null> {
  const { agent, store, sessionId, ownerId } = target;
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const known = new Set(view.messages.map((message) => message.id));
  if (messages.every((message) => known.has(message.id))) return null;
  return startRun({ agent, store, sessionId, ownerId, source: 'server', messages, queue: 'running-or-waiting' });
}
