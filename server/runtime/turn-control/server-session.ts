// Trusted server code adding to a session: a webhook, a job, a script (docs/turn-control.md,
// "Server append"). `session(agent, threadId, {ownerId}).append(...)` takes a turn on the session as
// any client would — same log, same run, same rules — so every open tab sees it live on the
// session stream. Unlike a browser, trusted code may add system notes as well as user messages.
// Commands (`inputs.approval()`, `inputs.stop()`, …) go in the same call and are carried out
// here, in order, each by the function its HTTP route calls.
import { isSessionCommand, provideServerSessions, type DeepAgent, type ServerSessionOptions, type SessionCommand } from '../../authoring';
import type { ChatMessage } from '../../store/messages';
import type { DecisionActor } from '../../store/pauses';
import { LOCAL_OWNER, isOpenDevMode, keyLabelOf } from '../../credentials/open-dev-mode';
import { getStore } from '../../store';
import type { EventStore } from '../../store/types';
import { openSession, scopedSessionId } from '../session';
import type { StartedRun } from '../turn';
import { decideInterrupt } from './decide-out-of-band';
import { requestSteer } from './steer';
import { requestStop } from './stop';
import { changeQueue, startRun } from './turns';

export { systemNote, userMessage } from '../session';

/** An agent's session as trusted code reaches it (define.ts names the same, with less of the run). */
export interface ServerSession {
  /** Appends messages and commands, in order (define.ts, ServerSession); the last run started, or null. */
  append: (...items: Array<ChatMessage | SessionCommand>) => Promise<StartedRun | null>;
}

type Target = { agent: DeepAgent; store: EventStore; sessionId: string; ownerId: string };

/** The session `threadId` of `ownerId` (the key its clients name it by), as trusted code appends to it. */
export function session(agent: DeepAgent, threadId: string, options: ServerSessionOptions = {}): ServerSession {
  return {
    append: async (...items) => {
      const ownerId = trustedOwner(options.ownerId);
      const target: Target = { agent, store: options.store ?? getStore(), sessionId: scopedSessionId(ownerId, threadId), ownerId };
      let started: StartedRun | null = null;
      // Messages side by side are one append (one turn on all of them); each command is a step of its own.
      for (let at = 0; at < items.length;) {
        const item = items[at]!;
        if (isSessionCommand(item)) {
          started = (await carryOut(target, item)) ?? started;
          at++;
          continue;
        }
        let end = at;
        while (end < items.length && !isSessionCommand(items[end]!)) end++;
        started = (await appendToSession(target, items.slice(at, end) as ChatMessage[])) ?? started;
        at = end;
      }
      return started;
    },
  };
}

/**
 * One command, by the function its route calls (docs/turn-control.md, "Server append"). A
 * refusal is thrown as the route would answer it (a Refusal with its code), having changed
 * nothing: guidance for a session with no run in progress, a retry of a turn that did not fail.
 */
async function carryOut(target: Target, command: SessionCommand): Promise<StartedRun | undefined> {
  const { agent, store, sessionId, ownerId } = target;
  const findAgent = (name: string) => (name === agent.name ? agent : undefined);
  switch (command.command) {
    case 'approval':
    case 'input': {
      const interruptId = command.command === 'approval' ? command.approvalId : command.inputId;
      const request =
        command.command === 'input'
          ? { status: 'approved' as const, payload: command.value }
          : {
              status: command.approved ? ('approved' as const) : ('denied' as const),
              ...(command.reason === undefined ? {} : { reason: command.reason }),
              ...(command.editedArgs === undefined ? {} : { editedArgs: command.editedArgs }),
              ...(command.payload === undefined ? {} : { payload: command.payload }),
            };
      const decided = await decideInterrupt({ store, findAgent, interruptId, request, by: ownerActor(ownerId), inSession: sessionId });
      return decided.continuation;
    }
    case 'retry':
      return startRun({ agent, store, sessionId, ownerId, source: 'server', messages: [], retry: { retryId: command.retryId } });
    case 'stop':
      // As the stop route answers: a stop that finds its run ended (or another in progress) stops nothing, harmlessly.
      await requestStop(store, findAgent, {
        sessionId,
        ownerId,
        agent: agent.name,
        ...(command.runId === undefined ? {} : { runId: command.runId }),
        frontier: command.frontier ?? null,
        by: { source: 'server', ownerId },
      });
      return undefined;
    case 'steer':
      await requestSteer(store, findAgent, {
        sessionId,
        ownerId,
        agent: agent.name,
        ...(command.runId === undefined ? {} : { runId: command.runId }),
        message: { id: command.id, role: 'user', content: command.text },
      });
      return undefined;
    case 'queue': {
      const { command: _kind, ...operation } = command;
      await changeQueue(store, findAgent, { sessionId, ownerId, agent: agent.name, source: 'server' }, operation);
      return undefined;
    }
  }
}

/**
 * Trusted code decides as the session's owner, with the rights of the owner's kind of identity
 * (docs/turn-control.md, "Server append"): every rule a decision meets still holds — a tool kept
 * for named approvers, or whose requester may not approve it, is refused here as it would be to
 * the owner; a browser's session may not approve what is kept for key holders. A user's roles
 * are not known here, so a list of roles is met only by the user deciding themselves.
 */
function ownerActor(ownerId: string): DecisionActor {
  if (ownerId === LOCAL_OWNER && isOpenDevMode()) return { source: 'server', ownerId, credential: 'local' };
  const key = keyLabelOf(ownerId);
  if (ownerId.startsWith('key:')) return { source: 'server', ownerId, credential: 'key', ...(key ? { keyName: key.name } : {}) };
  if (ownerId.startsWith('user:')) return { source: 'server', ownerId, credential: 'user', roles: [] };
  return { source: 'server', ownerId, credential: 'browser' };
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
