// Session reads for the web app's server components: the owner's recent threads, and one
// thread's view for the first paint. Plain data out; the client hook takes over from it.
import type { ContextCompactedValue, DecisionRecord, FailedReply, ForkParent, QueueItem, ReplyVersions } from '../contract';
import {
  decisionRecords,
  forkParent,
  queueItems,
  readViewAndQueue,
  threadStatus,
  emptyView,
  isOwnSession,
  loadView,
  scopedSessionId,
  sessionKeyOf,
  sessionTitle,
  shownVote,
  threadModel,
  replyVersions,
  undoOffers,
  type UndoOffer,
  voteReaderOf,
} from '../runtime';
import type { Message as AgUiMessage } from '@ag-ui/core';
import { findAgent } from '../agents';
import type { RunFailureDetails, StoredEvent } from '../store/events';
import { getStore, type EventStore, type SessionRecord, type SessionStatus } from '../store';
import { toAgUiInterrupt, toAgUiMessages } from '../wire/agui/events';

export interface SessionSummary {
  id: string;
  agent: string;
  title: string;
  status: SessionStatus;
  /** ISO time of the last change. */
  updatedAt: string;
  /** The key of the thread this one was forked from (docs/time-travel.md); null for an original. */
  parentId: string | null;
  /**
   * A regeneration of a reply of that thread: a version of it, listed with it, not as a thread of
   * its own (the chat's "‹ 2/3 ›" reaches it; docs/time-travel.md, "Regenerate").
   */
  versionOf?: string;
}

export type ThreadPage =
  | { kind: 'not_found' }
  /** The thread belongs to another agent of the same owner: show it there. */
  | { kind: 'elsewhere'; agent: string }
  | {
      kind: 'thread';
      /** false: nothing is stored under this id yet (its first run will create it). */
      exists: boolean;
      messages: AgUiMessage[];
      state: Record<string, unknown>;
      status: SessionStatus;
      error: { code: string; message: string; details?: RunFailureDetails } | null;
      /** Undecided interrupts in the AG-UI 1.0 shape HttpAgent holds, so a refresh can answer them. */
      interrupts: AgUiInterrupt[];
      /** The run they paused (the resume's parentRunId). */
      interruptedRunId: string | null;
      activeRunId: string | null;
      /** The session stream from here on carries everything after this first paint. */
      cursor: string;
      /** Messages waiting for their turn (docs/turn-control.md, "Queue"). */
      queue: QueueItem[];
      /** Every decision made on the thread, shown under its call (docs/hitl.md, "Decisions in the chat"). */
      decisions: DecisionRecord[];
      /** Tool calls a stop cut. */
      stoppedToolCallIds: string[];
      /** Replies failed turns cut short, marked so after a reload (docs/turn-control.md, "Retry"). */
      failedReplies: FailedReply[];
      /** Where older turns were compacted (docs/models.md, "Long threads"): a notice after each one's last message. */
      compactions: ContextCompactedValue[];
      /** The thread's model, one of the agent's (docs/models.md, "Choosing a model"). */
      model: string;
      /** The thread this one was forked from, and where (docs/time-travel.md). */
      parent: ForkParent | null;
      /** Calls whose effects happened in the parent thread, before the fork. */
      inheritedToolCallIds: string[];
      /** Effects the parent made after the fork point that this thread can undo. */
      undoOffers: UndoOffer[];
      /** Replies regenerated, with every version's thread (docs/time-travel.md, "Regenerate"). */
      versions: ReplyVersions[];
    };

type AgUiInterrupt = ReturnType<typeof toAgUiInterrupt>;

export async function recentSessions(ownerId: string, options: { limit?: number; agent?: string } = {}): Promise<SessionSummary[]> {
  const store = getStore();
  const sessions = await store.listSessions(ownerId, { limit: options.limit ?? 20, agent: options.agent });
  return Promise.all(
    sessions.map(async (session) => ({
      // The key the owner's pages name it by.
      id: sessionKeyOf(session.id),
      agent: session.agent,
      // A session written before titles were stored has none: its first user message stands in.
      title: session.title ?? firstUserText(await store.readEvents(session.id)) ?? 'New conversation',
      status: session.status,
      updatedAt: session.updatedAt.toISOString(),
      parentId: session.parentId ? sessionKeyOf(session.parentId) : null,
      ...(session.parentId && (await isRegeneration(store, session)) ? { versionOf: sessionKeyOf(session.parentId) } : {}),
    })),
  );
}

/** Whether a fork asked a reply again (its log says how it was forked; the view is cached). */
async function isRegeneration(store: EventStore, session: SessionRecord): Promise<boolean> {
  return (await loadView(store, session.id, findAgent(session.agent)?.initialState ?? {})).forkedFrom?.mode === 'regenerate';
}

/** One thread as its owner sees it; another owner's thread is indistinguishable from none. */
export async function loadThread(agentName: string, threadId: string, ownerId: string | null): Promise<ThreadPage> {
  const agent = findAgent(agentName);
  if (!agent || ownerId === null) return { kind: 'not_found' };
  const store = getStore();
  const sessionId = scopedSessionId(ownerId, threadId);
  const session: SessionRecord | null = await store.getSession(sessionId);
  if (session && !isOwnSession(session, { ownerId })) return { kind: 'not_found' };
  if (session && session.agent !== agent.name) {
    return findAgent(session.agent) ? { kind: 'elsewhere', agent: session.agent } : { kind: 'not_found' };
  }
  const { view, queue } = session ? await readViewAndQueue(store, sessionId, agent.initialState) : { view: emptyView(agent.initialState), queue: [] };
  const { status, error, pending, interruptedRunId, activeRunId, cursor } = threadStatus(view);
  return {
    kind: 'thread',
    exists: session !== null,
    messages: toAgUiMessages(view.messages),
    state: view.state,
    status,
    error,
    // Strict: the browser's HttpAgent declares protocol 1.0 and warns on the extra seed keys.
    // Who voted, only for a key holder's eyes (docs/approvals.md, "Votes").
    interrupts: pending.map((record) =>
      toAgUiInterrupt(
        record,
        true,
        view.interrupts[record.id]?.votes?.map((vote) => shownVote(vote, voteReaderOf(ownerId))),
      ),
    ),
    interruptedRunId,
    // A run still going on the server: the page re-joins it (a refresh does not end a turn).
    activeRunId,
    cursor,
    queue: queueItems(queue),
    decisions: decisionRecords(view),
    stoppedToolCallIds: view.stoppedToolCallIds,
    failedReplies: view.failedReplies,
    compactions: view.compactions,
    model: threadModel(agent, view),
    parent: forkParent(view),
    inheritedToolCallIds: view.inheritedToolCallIds,
    undoOffers: await undoOffers(store, agent, session, view),
    versions: await replyVersions(store, session, view, agent.initialState),
  };
}

function firstUserText(events: StoredEvent[]): string | undefined {
  for (const { event } of events) {
    if (event.type === 'message_added' && event.message.role === 'user' && event.message.content.trim()) {
      return sessionTitle(event.message.content);
    }
  }
  return undefined;
}
