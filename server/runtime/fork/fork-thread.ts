// Forking a thread (docs/time-travel.md): a new thread of the same owner whose log starts as a
// copy of the original's up to a message, written in one append, and — for an edit-and-resend
// or a regenerate — its first turn. The original is read, never written.
import { randomUUID } from 'node:crypto';
import type { FindAgent } from '../../authoring';
import type { ForkMode, RunSource } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { ConcurrentAppendError, type EventStore } from '../../store/types';
import { Refusal } from '../errors';
import { checkClientId, ownedSession, scopedSessionId, sessionNotFound, sessionTitle } from '../session';
import type { StartedRun } from '../turn';
import { startRun } from '../turn-control';
import { forkPrefix } from './fork-prefix';

export interface ForkRequest {
  findAgent: FindAgent;
  /** The agent the client addressed: a thread of another agent is not found. Absent (a chat wire's session key): the thread's own. */
  agent?: string;
  store: EventStore;
  ownerId: string;
  /** The original thread's key. */
  threadId: string;
  atMessageId: string;
  /** fork: up to and with the message; edit: `message` replaces the user message; regenerate: the assistant reply is asked again. */
  mode: ForkMode;
  /** edit: the user message sent in place of `atMessageId`. */
  message?: ChatMessage;
  /** The new thread's key; a fresh one when absent. */
  newThreadId?: string;
  /** The new turn's run id (edit, regenerate). */
  runId?: string;
  source: RunSource;
  /** The model the new turn runs on, one of the agent's. */
  model?: string;
}

export interface ForkedThread {
  threadId: string;
  sessionId: string;
  /** The first turn of an edit-and-resend or a regenerate. */
  run?: StartedRun;
}

export async function forkThread(request: ForkRequest): Promise<ForkedThread> {
  const { store, ownerId, mode } = request;
  if (mode === 'edit' && request.message?.role !== 'user') throw new Refusal('invalid_message', 'An edit-and-resend needs the new text of the user message.');
  checkClientId(request.atMessageId, 'atMessageId');
  const caller = { sessionId: scopedSessionId(ownerId, request.threadId), ownerId, agent: request.agent };
  const original = await ownedSession(store, caller);
  const agent = request.findAgent(original.agent);
  if (!agent) throw sessionNotFound(caller);
  const log = await store.readEvents(original.id);
  const prefix = forkPrefix(log, { threadId: request.threadId, atMessageId: request.atMessageId, mode, initialState: agent.initialState });

  const threadId = request.newThreadId ?? randomUUID();
  const sessionId = scopedSessionId(ownerId, threadId);
  // An edit of the thread's first message names the fork by its new text.
  const firstUser = prefix.view.messages.find((message) => message.role === 'user');
  const title = !firstUser && request.message ? sessionTitle(request.message.content) : (original.title ?? undefined);
  try {
    await store.append(sessionId, 0, prefix.events, { status: prefix.view.status, title, create: { ownerId, agent: agent.name, parentId: original.id } });
  } catch (error) {
    if (ConcurrentAppendError.is(error)) throw new Refusal('thread_exists', `Thread "${threadId}" exists already; fork into a new threadId.`);
    throw error;
  }
  if (mode === 'fork') return { threadId, sessionId };
  const run = await startRun({
    agent,
    store,
    sessionId,
    ownerId,
    source: request.source,
    runId: request.runId,
    messages: mode === 'edit' ? [request.message!] : [],
    model: request.model,
  });
  return { threadId, sessionId, run };
}
