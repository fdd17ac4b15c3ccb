// Trusted server code adding to a session: a webhook, a job, a script (docs/turn-control.md,
// "Server append"). `session(agent, threadId, {ownerId}).append(...)` takes a turn on the session as
// any client would — same log, same run, same rules — so every open tab sees it live on the
// session stream. Unlike a browser, trusted code may add system notes as well as user messages.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../define';
import type { ChatMessage } from '../../events';
import { getStore } from '../../store/index';
import type { EventStore } from '../../store/types';
import { startRun } from './turns';
import type { StartedRun } from '../turn';
import { openSession , scopedSessionId } from '../session';

/** A user message, as if the session's person had typed it. */
export function userMessage(content: string, options: { id?: string } = {}): ChatMessage {
  return { id: options.id ?? randomUUID(), role: 'user', content };
}

/** A note for the model from trusted code (e.g. "The customer's payment failed"); no client may send one. */
export function systemNote(content: string, options: { id?: string } = {}): ChatMessage {
  return { id: options.id ?? randomUUID(), role: 'system', content };
}

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

/** The session `threadId` of `ownerId` (the key its clients name it by), as trusted code appends to it. */
export function session(agent: DeepAgent, threadId: string, options: { ownerId: string; store?: EventStore }): ServerSession {
  return {
    append: (...messages) => appendToSession({ agent, store: options.store ?? getStore(), sessionId: scopedSessionId(options.ownerId, threadId), ownerId: options.ownerId }, messages),
  };
}

/** Trusted messages into a stored session, named by its stored id (a timer firing comes through here). */
export async function appendToSession(target: { agent: DeepAgent; store: EventStore; sessionId: string; ownerId: string }, messages: ChatMessage[]): Promise<StartedRun | null> {
  const { agent, store, sessionId, ownerId } = target;
  const { view } = await openSession(store, sessionId, ownerId, agent);
  const known = new Set(view.messages.map((message) => message.id));
  if (messages.every((message) => known.has(message.id))) return null;
  return startRun({ agent, store, sessionId, ownerId, source: 'server', messages, queue: 'running-or-waiting' });
}
