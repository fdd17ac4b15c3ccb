// The message queue (docs/turn-control.md, "Queue"). A user message sent while a turn runs,
// or while it waits on a decision, is queued — durably, beside the log, since a running run
// holds the head — and neither dropped nor refused. The queue goes out in order, one turn per
// message, whenever the session falls idle: a turn that answered, or one that was stopped.
// A failed turn holds the queue until it is retried (or a message is sent now). Until a
// message goes out its sender may edit, move or remove it, or send it now: that ends the
// running turn at its next step boundary, or cancels the decision the turn waits on.
import { randomUUID } from 'node:crypto';
import type { DeepAgent, FindAgent } from '../../authoring';
import type { RunSource } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { ConcurrentAppendError, LimitReachedError, type EventStore, type QueueEntry, type QueuedMessage } from '../../store/types';
import { Refusal } from '../errors';
import { pendingInterrupts, type SessionView } from '../session';
import type { RunRequest, StartedRun } from '../turn';
import { ownedSession, loadView, sessionKeyOf, limitRefusal, maxQueuedMessages, checkClientId, checkMessageText, checkNewMessages } from '../session';

/** Starts a turn with the queue wired in (turns.ts): how the queue sends a message without importing what sends it. */
export type StartRun = (request: RunRequest) => Promise<StartedRun>;

export type QueueOperation =
  | { op: 'add'; message: ChatMessage }
  | { op: 'edit'; messageId: string; content: string }
  /** To `index` in the queue as it stands (0 is next); an index past the end is the end. */
  | { op: 'move'; messageId: string; index: number }
  | { op: 'remove'; messageId: string }
  | { op: 'sendNow'; messageId: string };

export interface QueueRequest {
  sessionId: string;
  ownerId: string;
  /** The agent the client addressed: a session of another agent is not found. */
  agent?: string;
  source: RunSource;
  /**
   * Receives the end of a turn the operation started (an add to an idle session, a send-now),
   * for a host that freezes a function once it has answered (docs/deploy.md): the route hands
   * it to Next's after().
   */
  keepAlive?: (work: Promise<unknown>) => void;
}

/** Whether a queued message is in the log already: it went out (here, or from another process). */
function hasMessage(view: SessionView, messageId: string): boolean {
  return view.messages.some((message) => message.id === messageId);
}

/**
 * A thread's view and queue as one moment, for readers that show both (the first paint, the
 * hydration JSON). Sending a queued message adds it to the log, then takes it out of the queue;
 * read side by side, a send between the two reads could show the message in neither. Read the
 * queue first, then the log, and drop what the log already has: the message shows once, queued
 * or sent.
 */
export async function readViewAndQueue(
  store: EventStore,
  sessionId: string,
  initialState: DeepAgent['initialState'],
): Promise<{ view: SessionView; queue: QueuedMessage[] }> {
  const queue = await store.listQueue(sessionId);
  const view = await loadView(store, sessionId, initialState);
  const inLog = new Set(view.messages.map((message) => message.id));
  return { view, queue: queue.filter((item) => !inLog.has(item.message.id)) };
}

/** Applies one operation to a session's queue; answers the queue as it stands after it. */
export async function changeQueue(
  store: EventStore,
  findAgent: FindAgent,
  request: QueueRequest,
  operation: QueueOperation,
  start: StartRun,
): Promise<QueuedMessage[]> {
  // Before anything is read: an id no URL could carry names nothing, and PostgreSQL could not even look it up.
  checkClientId(operation.op === 'add' ? operation.message.id : operation.messageId, 'id');
  const session = await ownedSession(store, request);
  const agent = findAgent(session.agent);
  if (!agent) throw new Refusal('not_found', `No session "${sessionKeyOf(request.sessionId)}".`, { what: 'session' });
  const { sessionId } = request;
  switch (operation.op) {
    case 'add': {
      const { message } = operation;
      if (message.role !== 'user' || !message.content.trim()) throw new Refusal('invalid_message', 'A queued message is a user message with text.');
      checkNewMessages(session, [message]);
      const view = await loadView(store, sessionId, agent.initialState);
      if (view.messages.some((known) => known.id === message.id))
        throw new Refusal('already_sent', `Message "${message.id}" is in the thread already.`, { messageId: message.id });
      await enqueueWithinLimit(store, sessionId, [{ message, runId: randomUUID() }], request.source);
      // Queued on an idle session (nothing to wait for): it goes out at once.
      keepGoing(request, await sendQueued(store, agent, sessionId, start));
      break;
    }
    case 'edit': {
      if (!operation.content.trim()) throw new Refusal('invalid_message', 'A queued message needs text; remove it instead.');
      checkMessageText(operation.content);
      if (!(await store.updateQueued(sessionId, operation.messageId, { content: operation.content }))) throw notQueued(operation.messageId);
      break;
    }
    case 'move': {
      const queue = await store.listQueue(sessionId);
      const others = queue.filter((item) => item.message.id !== operation.messageId);
      if (others.length === queue.length) throw notQueued(operation.messageId);
      const index = Math.max(0, Math.min(others.length, Math.trunc(operation.index)));
      // Between its new neighbours: one row changes, whatever the queue's length.
      const before = others[index - 1]?.position;
      const after = others[index]?.position;
      const position = before === undefined ? (after === undefined ? 1 : after - 1) : after === undefined ? before + 1 : (before + after) / 2;
      await store.updateQueued(sessionId, operation.messageId, { position });
      break;
    }
    case 'remove': {
      if (!(await store.removeQueued(sessionId, operation.messageId))) throw notQueued(operation.messageId);
      break;
    }
    case 'sendNow':
      await sendNow(store, agent, request, operation.messageId, start);
      break;
  }
  return store.listQueue(sessionId);
}

/**
 * Queues `entries`, all or none: 429 queue_full, nothing queued, when the session's queue would
 * hold more than maxQueuedMessages(); a message queued already is the same message, not counted
 * again. The store counts and writes in one step, so requests at the same moment cannot pass the
 * limit together (docs/security.md, "What a request may carry").
 */
export async function enqueueWithinLimit(store: EventStore, sessionId: string, entries: QueueEntry[], source: string): Promise<QueuedMessage[]> {
  const limit = maxQueuedMessages();
  try {
    return await store.enqueue({ sessionId, entries, source, limit });
  } catch (error) {
    if (!LimitReachedError.is(error)) throw error;
    throw limitRefusal({
      code: 'queue_full',
      noun: 'Messages queued on a thread',
      limit,
      held: error.held,
      adding: entries.length,
      advice: 'Wait for the turn in progress to end, or remove queued messages; nothing was queued.',
    });
  }
}

function notQueued(messageId: string): Refusal {
  return new Refusal('not_queued', `Message "${messageId}" is not queued: it was sent or removed already.`, { messageId });
}

/**
 * Send-now: the message goes first. A running turn takes it as its cue to end at its next step
 * boundary (turn/turn-runner.ts); a turn waiting on decisions has them cancelled; an idle or failed
 * session sends it at once.
 */
async function sendNow(store: EventStore, agent: DeepAgent, request: QueueRequest, messageId: string, start: StartRun): Promise<void> {
  const { sessionId } = request;
  const view = await loadView(store, sessionId, agent.initialState);
  if (view.status === 'awaiting_tools') {
    throw new Refusal('tool_result_missing', 'The turn waits for a browser tool result; send it (or stop the turn) before sending a queued message now.');
  }
  const queue = await store.listQueue(sessionId);
  if (!queue.some((item) => item.message.id === messageId)) throw notQueued(messageId);
  await store.updateQueued(sessionId, messageId, { sendNow: true, position: Math.min(...queue.map((item) => item.position)) - 1 });
  const pending = pendingInterrupts(view);
  if (view.status === 'running') return;
  if (pending.length > 0) {
    // The waiting turn ends as cancelled (nothing it asked about runs); its end sends the queue.
    try {
      const cancelling = await start({
        agent,
        store,
        sessionId,
        ownerId: request.ownerId,
        source: request.source,
        messages: [],
        decisions: pending.map((record) => ({ interruptId: record.id, status: 'cancelled' as const })),
        decidedBy: { source: 'queue', ownerId: request.ownerId },
      });
      keepGoing(request, cancelling);
    } catch (error) {
      // Decided meanwhile by someone else: that continuation's end sends the queue.
      if (!(error instanceof Refusal) && !ConcurrentAppendError.is(error)) throw error;
    }
    return;
  }
  keepGoing(request, await sendQueued(store, agent, sessionId, start));
}

function keepGoing(request: QueueRequest, run: StartedRun | undefined): void {
  if (run) request.keepAlive?.(run.done);
}

/**
 * Sends the queue's next message as a turn of its own, when the session is free for it: idle,
 * or failed and the message was sent now. Starts at most one run (its end sends the next) and
 * returns it. A message whose turn started already (the server died before it was taken out
 * of the queue) is only taken out. Another process sending it first is not an error.
 */
export async function sendQueued(store: EventStore, agent: DeepAgent, sessionId: string, start: StartRun): Promise<StartedRun | undefined> {
  for (;;) {
    const [next] = await store.listQueue(sessionId);
    if (!next) return undefined;
    const view = await loadView(store, sessionId, agent.initialState);
    if (hasMessage(view, next.message.id)) {
      await store.removeQueued(sessionId, next.message.id);
      continue;
    }
    if (!(view.status === 'idle' || (view.status === 'error' && next.sendNow))) return undefined;
    const session = await store.getSession(sessionId);
    if (!session) return undefined;
    let run: StartedRun;
    try {
      run = await start({ agent, store, sessionId, ownerId: session.ownerId, source: next.source as RunSource, runId: next.runId, messages: [next.message] });
    } catch (error) {
      if (ConcurrentAppendError.is(error) || (error instanceof Refusal && error.code === 'session_busy')) return undefined;
      if (error instanceof Refusal) {
        // Another process sent it between our reads (its turn may be over already: run_id_reused):
        // the next pass only takes it out of the queue.
        if (hasMessage(await loadView(store, sessionId, agent.initialState), next.message.id)) continue;
        // A message that can never go out (its run id was used meanwhile, say) must not hold up the rest.
        console.error(`[stackbone] queued message ${next.message.id} of ${sessionId} could not be sent (${error.code}): ${error.message}`);
        await store.removeQueued(sessionId, next.message.id);
        continue;
      }
      throw error;
    }
    await store.removeQueued(sessionId, next.message.id);
    return run;
  }
}

/**
 * Resolves true once a queued message's turn has started, false when `waitMs` passed (or
 * `signal` aborted) first; rejects with `not_queued` when it left the queue without going out
 * (its sender removed it).
 */
export async function untilSent(store: EventStore, agent: DeepAgent, item: QueuedMessage, signal?: AbortSignal, waitMs = Infinity): Promise<boolean> {
  const sent = async () => hasMessage(await loadView(store, item.sessionId, agent.initialState), item.message.id);
  const deadline = Date.now() + waitMs;
  let wake: () => void = () => undefined;
  const unwatch = store.watch(item.sessionId, () => wake());
  signal?.addEventListener('abort', () => wake(), { once: true });
  try {
    for (;;) {
      // Armed before the reads, so a change between them is not missed.
      const woken = new Promise<void>((resolve) => (wake = resolve));
      if (await sent()) return true;
      if (!(await store.listQueue(item.sessionId)).some((queued) => queued.message.id === item.message.id)) {
        // Sent between the two reads, or removed.
        if (await sent()) return true;
        throw new Refusal('not_queued', `Queued message "${item.message.id}" was removed before it was sent.`, { messageId: item.message.id });
      }
      if (signal?.aborted || Date.now() >= deadline) return false;
      // A safety net for a missed wake-up, and the deadline.
      const timer = setTimeout(() => wake(), Math.max(0, Math.min(2_000, deadline - Date.now())));
      await woken;
      clearTimeout(timer);
    }
  } finally {
    unwatch();
  }
}
