// GET /api/agents/{name}: reading a thread (docs/internals/architecture.md, "Streams and cursors").
//   ?threadId=T[&before=M][&limit=N] JSON for hydration: the last page of messages (olderCursor: ask for the one before with
//                                    before=), state, the active run, open interrupts, decisions, the cursor
//   ?runId=R[&threadId=T]&offset=C   SSE: that run from just after cursor C (-1: its start), live until it ends
//   ?threadId=T&offset=C             SSE: the session stream, every run and decision of the thread from any source
// `Last-Event-ID` takes the place of `offset` on a reconnect; `protocolVersion=1.0` asks for the
// strict 1.0 interrupt shape, as the same field of a POST body does.
import { modelMessagesToUIMessages, type ModelMessage } from '@tanstack/ai';
import type { DeepAgent } from '../../authoring';
import { findAgent } from '../../agents';
import { errorResponse, HttpError } from '../../http/errors';
import { takeStreamSlot, type StreamSlot } from '../../http/limits';
import { resolveOwner } from '../../identity/owner';
import { forkParent, formatCursor, parseCursor, type CursorPosition } from '../../runtime';
import {
  decisionRecords,
  follow,
  queueItems,
  readViewAndQueue,
  threadStatus,
  liveFeed,
  liveRunOf,
  scopedSessionId,
  sessionKeyOf,
  isOwnSession,
  ownedSession,
  loadView,
  MAX_PAGE_MESSAGES,
  messagePage,
  shownVote,
  threadModel,
  undoOffers,
  voteReaderOf,
} from '../../runtime';
import { getStore, type SessionRecord } from '../../store';
import { toAgUiInterrupt, toAgUiUsage, toTanStackMessages } from '../../wire/agui/events';
import { agUiStream } from '../../wire/agui/stream';
import { setting } from '../../config';
import { jsonResponse } from '../../http/small-answers';

/** How long one session-stream response lasts; the client reconnects with its cursor. */
function sessionStreamMs(): number {
  return setting('STACKBONE_STREAM_MAX_MS');
}

export async function handleAgUiThread(request: Request, agentName: string): Promise<Response> {
  try {
    const agent = findAgent(agentName);
    if (!agent) throw new HttpError('not_found', `No agent named "${agentName}".`, { what: 'agent' });
    const ownerId = await resolveOwner(request, { browser: true });
    const params = new URL(request.url).searchParams;
    const threadId = params.get('threadId') ?? undefined;
    const runId = params.get('runId') ?? undefined;
    const offset = request.headers.get('last-event-id') ?? params.get('offset');
    const after = offset === null ? null : parseCursor(offset);
    const strict = params.get('protocolVersion') === '1.0';
    if (offset !== null && !after)
      throw new HttpError('invalid_cursor', `"${offset}" is not a cursor: use -1 (from the start) or an event id this server sent.`);

    if (runId) {
      const joined = await joinRun(request, agent, ownerId, { threadId, runId, after, strict });
      if (!joined)
        throw new HttpError('not_found', `No run "${runId}"${threadId ? ` on thread "${threadId}"` : ' running on this server; name its threadId too'}.`, {
          what: 'run',
        });
      return joined;
    }
    if (!threadId) throw new HttpError('invalid_request', 'Name a threadId (hydration, or the session stream with offset) or a runId (join a run).');
    const store = getStore();
    const sessionId = scopedSessionId(ownerId, threadId);
    const session = await ownedSession(store, { sessionId, ownerId, agent: agent.name });

    const wantsStream = offset !== null || (request.headers.get('accept') ?? '').includes('text/event-stream');
    if (wantsStream) {
      const slot = takeStreamSlot(ownerId, request); // 429 when the owner, or a browser's address, has the most streams open (docs/security.md)
      const parts = follow({ store, sessionId, initialState: agent.initialState, after, signal: request.signal, maxMs: sessionStreamMs(), queue: true });
      // The stream ends after maxMs; a browser's EventSource reopens it from its last id a second later.
      return agUiStream(parts, {
        threadId,
        runId: '',
        strict,
        accept: request.headers.get('accept') ?? undefined,
        retryMs: 1000,
        slot,
        voteReader: voteReaderOf(ownerId),
      });
    }
    return jsonResponse(await hydration(agent, session, ownerId, pageOf(params)));
  } catch (error) {
    return errorResponse(error, 'AG-UI thread request');
  }
}

/** Which page of messages a hydration asks for: `before` a message (a page's olderCursor), at most `limit` of them. */
function pageOf(params: URLSearchParams): { before?: string; limit?: number } {
  const before = params.get('before') ?? undefined;
  const limit = params.get('limit');
  if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MAX_PAGE_MESSAGES))
    throw new HttpError('invalid_request', `limit: a whole number of messages from 1 to ${MAX_PAGE_MESSAGES}.`, { field: 'limit' });
  return { before, ...(limit !== null ? { limit: Number(limit) } : {}) };
}

/**
 * The thread as a client hydrates it: the shape TanStack AI's `hydrate` reads, plus state and
 * cursors. `messages` is a page: the newest by default (a thread may be long), older ones by
 * `before=<olderCursor>`.
 */
async function hydration(agent: DeepAgent, session: SessionRecord, ownerId: string, page: { before?: string; limit?: number }) {
  const sessionId = session.id;
  const store = getStore();
  const { view, queue } = await readViewAndQueue(store, sessionId, agent.initialState);
  const { status, activeRunId: running, pending, interruptedRunId, error, cursor } = threadStatus(view);
  const live = running ? liveFeed(sessionId) : undefined;
  const liveParts = live?.runId === running ? live.parts : [];
  const models = toTanStackMessages(view.messages) as unknown as ModelMessage[];
  const { messages, olderCursor } = messagePage(modelMessagesToUIMessages(models), page);
  return {
    threadId: sessionKeyOf(sessionId),
    agent: agent.name,
    status,
    /** The last run's failure while the thread is in error: a model_error's details say whether a Retry may go through. */
    error,
    messages,
    /** The id of the oldest message above: `before=` it asks for the page before; null when the thread has no older ones. */
    olderCursor,
    state: view.state,
    // Join the active run from its start (offset -1): the messages above do not hold its unfinished step.
    activeRun: running
      ? { runId: running, cursor: liveParts.findLast((entry) => entry.cursor)?.cursor ?? formatCursor(view.seq, Number.MAX_SAFE_INTEGER) }
      : null,
    interrupts: interruptedRunId
      ? {
          runId: interruptedRunId,
          // Who voted, only for a key holder's eyes (docs/approvals.md, "Votes").
          pending: pending.map((record) =>
            toAgUiInterrupt(
              record,
              false,
              view.interrupts[record.id]?.votes?.map((vote) => shownVote(vote, voteReaderOf(ownerId))),
            ),
          ),
        }
      : null,
    /** Every decision made on the thread, and the calls a stop cut (docs/hitl.md, "Decisions in the chat"). */
    decisions: decisionRecords(view),
    stoppedToolCallIds: view.stoppedToolCallIds,
    /** Replies failed turns cut short (docs/turn-control.md, "Retry"): a chat marks them failed. */
    failedReplies: view.failedReplies,
    /** Where older turns were compacted to fit the agent's context budget, oldest first (docs/models.md, "Long threads"). */
    compactions: view.compactions,
    /** Messages waiting for their turn, in the order they go out (docs/turn-control.md, "Queue"). */
    queue: queueItems(queue),
    /**
     * What the thread's model calls cost (docs/internals/architecture.md, "Usage"), as AG-UI's TokenUsage
     * entries (one per provider and model): the last run's, as its RUN_FINISHED said, and the
     * whole thread's.
     */
    usage: {
      lastRun: view.lastRun ? { runId: view.lastRun.runId, usage: toAgUiUsage(view.lastRun.usage) } : null,
      thread: toAgUiUsage(view.usage),
    },
    /** The thread this one was forked from, and at which message (docs/time-travel.md); null for an original. */
    parent: forkParent(view),
    /** Calls whose effects happened in the parent thread before the fork: shown as such, never run in this one. */
    inheritedToolCallIds: view.inheritedToolCallIds,
    /** Effects the parent made after the fork point that this thread can undo (POST /api/agents/{name}/undo). */
    undoOffers: await undoOffers(store, agent, session, view),
    /** The thread's model: its last turn's, which its next turn runs on unless the client chooses another (docs/models.md, "Choosing a model"). */
    model: threadModel(agent, view),
    /** The session stream from here on misses nothing. */
    cursor,
  };
}

/**
 * A run's stream from a cursor: from this process's live feed while the run runs here,
 * else from the log (a finished run replays; a run in another process arrives as it is
 * written). Null when there is no such run for this owner. Without a thread, only a run of the
 * owner's running in this process is found (TanStack AI's joinRun names the run alone).
 * `slot`: one the caller holds already; else one is taken for the stream (429 when the owner has
 * the most open).
 */
export async function joinRun(
  request: Request,
  agent: DeepAgent,
  ownerId: string,
  options: { threadId?: string; runId: string; after: CursorPosition | null; strict: boolean; slot?: StreamSlot },
): Promise<Response | null> {
  const store = getStore();
  const byRunId = options.threadId === undefined ? liveRunOf(ownerId, options.runId) : undefined;
  const sessionId = options.threadId === undefined ? byRunId?.sessionId : scopedSessionId(ownerId, options.threadId);
  if (!sessionId) return null;
  const feed = byRunId ?? liveFeed(sessionId);
  if (!isOwnSession(await store.getSession(sessionId), { ownerId, agent: agent.name })) return null;
  const context = { threadId: sessionKeyOf(sessionId), runId: options.runId, strict: options.strict, accept: request.headers.get('accept') ?? undefined };
  if (feed?.runId === options.runId)
    return agUiStream(feed.read(options.after, request.signal), { ...context, slot: options.slot ?? takeStreamSlot(ownerId, request) });
  // Most joins are of the thread's latest run, which the warm view knows; an older one takes a read of the log.
  const latest = (await loadView(store, sessionId, agent.initialState)).lastRun?.runId === options.runId;
  if (!latest && !(await store.readEvents(sessionId)).some(({ event }) => event.type === 'run_started' && event.runId === options.runId)) return null;
  return agUiStream(follow({ store, sessionId, initialState: agent.initialState, after: options.after, runId: options.runId, signal: request.signal }), {
    ...context,
    slot: options.slot ?? takeStreamSlot(ownerId, request),
  });
}
