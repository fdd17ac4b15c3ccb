// Starting a run. A run takes the session with a compare-and-set on the log head, together
// with everything the request brings (decisions, messages, state) — or, when the request
// may not run, writes nothing and says why. The loop itself is in turn-runner.ts.
import { randomUUID } from 'node:crypto';
import type { DecisionActor } from '../../store/pauses';
import type { RunSource, SessionEvent } from '../../store/events';
import type { ChatMessage, ToolCall } from '../../store/messages';
import { ConcurrentAppendError, type SessionRecord } from '../../store/types';
import { crashPoint, own } from '../common';
import { decisionEvents, expiryEvents, planDecisions, readDecision, type PlannedDecision } from '../decisions';
import { Refusal } from '../errors';
import {
  checkClientId,
  checkModel,
  checkNewMessages,
  checkPausedThreads,
  emptyView,
  foldEvents,
  loadView,
  openSession,
  pendingInterrupts,
  runHoldsSession,
  sessionKeyOf,
  sessionTitle,
  turnModel,
  type SessionView,
} from '../session';
import { publishFeed, RunFeed, type RunPart } from '../stream';
import { checkClientTools } from '../tools';
import { acceptInput } from './client-input';
import { followRun } from './follow-run';
import type { RunRequest, StartedRun, TurnQueue } from './run-request';
import { settleStoppedRun } from './stopped-run';
import { TurnRunner } from './turn-runner';
import { looksLikeNewThread } from './new-thread-guess';
import { watchFromCreation } from './first-look';

const ACTOR_OF_SOURCE: Record<RunSource, DecisionActor['source']> = {
  agui: 'agui',
  openai: 'server',
  anthropic: 'server',
  hitl: 'hitl',
  server: 'server',
  mcp: 'mcp',
};

/**
 * Starts a run: checks the request against the session and takes the session. Throws
 * Refusal — having written nothing — when the run may not start. Without `queue`
 * (a stateless turn) a busy session refuses rather than queues.
 */
export async function startRunWithQueue(request: RunRequest, queue?: TurnQueue): Promise<StartedRun> {
  const { agent, store, sessionId, ownerId } = request;
  checkRequestSize(request);
  checkClientTools(agent, request.clientTools ?? []);
  checkModel(agent, request.model);
  if (request.retry) checkClientId(request.retry.retryId, 'retryId');
  if (looksLikeNewThread(request, store)) {
    try {
      return await startOn(request, queue, { session: null, view: emptyView(agent.initialState) }, true);
    } catch (error) {
      // The session exists after all (its creating append was refused, nothing written), or the
      // guess led to a refusal: the truth, read, decides (new-thread-guess.ts).
      if (!(error instanceof Refusal) && !ConcurrentAppendError.is(error)) throw error;
    }
  }
  // A decision's caller read the session and planned its decisions on it: the run starts there (one pass per request).
  return startOn(request, queue, request.opened ?? (await openSession(store, sessionId, ownerId, agent)), false);
}

/** Starts the run on the session as read (`guessed`: as new, unread, new-thread-guess.ts). */
async function startOn(
  request: RunRequest,
  queue: TurnQueue | undefined,
  { session, view }: { session: SessionRecord | null; view: SessionView },
  guessed: boolean,
): Promise<StartedRun> {
  const { agent, store, sessionId, ownerId } = request;
  const { opened } = request;
  if (request.atSeq !== undefined && view.seq !== request.atSeq) {
    throw new Refusal('session_busy', `Session "${sessionKeyOf(sessionId)}" moved on (seq ${view.seq}, not ${request.atSeq}) before this run could start.`);
  }
  // Checked on the view the run's first append is a compare-and-set on: two undos of one effect in one thread are one.
  if (request.undo && view.undoneBy[request.undo.of])
    throw new Refusal('already_undone', `The effect of call "${request.undo.of}" was asked to be undone already (call "${view.undoneBy[request.undo.of]}").`);
  // Interrupts past their expiry escalate, or take their default action, before anything else.
  const expired: SessionEvent[] = opened?.expired ?? expiryEvents(view);
  const runId = request.runId ?? randomUUID();

  // The decisions are checked before the lease: a decision on an interrupt that is decided
  // already is refused as such (or, replayed, answered) even while its continuation runs.
  let decided: PlannedDecision[] = opened?.decided ?? [];
  const afterExpiry = foldEvents(view, expired);
  const answers = opened ? [] : (request.decisions ?? []).map((input) => readDecision(input, own(afterExpiry.interrupts, input.interruptId)?.record));
  if (answers.length) {
    const by: DecisionActor = request.decidedBy ?? { source: ACTOR_OF_SOURCE[request.source], ownerId };
    const plan = await planDecisions(agent, afterExpiry, answers, by, {
      elsewhere: async (id) => {
        const row = await store.findInterrupt(id);
        return row !== null && row.sessionId !== sessionId && row.ownerId === ownerId;
      },
      replayable: request.replayable ?? false,
      partial: false,
      sessionOwnerId: session?.ownerId ?? ownerId,
      mayVote: false,
    });
    checkParentRun(
      request.parentRunId,
      answers.map((answer) => afterExpiry.interrupts[answer.interruptId]!.record.runId),
    );
    if (plan.kind === 'replay') return replayRun(request, runId, afterExpiry);
    decided = plan.decisions;
  }
  const deciding = decided.length > 0;
  // The run that paused on the decided interrupts is the one this continues.
  let resumesRunId = deciding ? afterExpiry.interrupts[decided[0]!.interruptId]!.record.runId : undefined;
  // The same retry again (a double click, a resend) follows the run it started.
  const retried = request.retry && own(view.retries, request.retry.retryId);
  if (retried) return followRun(request, retried);
  const running = runHoldsSession(view, session);
  if (queue && session && !deciding && !request.retry && request.durable !== false && request.queue) {
    const waiting = request.queue === 'running-or-waiting' && pendingInterrupts(afterExpiry).length > 0;
    if (running || waiting) {
      const fresh = newMessages(view, request.messages);
      if (fresh.length > 0 && fresh.every((message) => message.role === 'user' || (message.role === 'system' && request.source === 'server'))) {
        checkNewMessages(session, fresh);
        return queue.queueBehind(request, fresh);
      }
    }
  }
  if (running) {
    throw new Refusal('session_busy', `Session "${sessionKeyOf(sessionId)}" is running another turn; try again when it finishes.`);
  }
  if (!deciding) {
    const pending = pendingInterrupts(afterExpiry);
    if (pending.length > 0) {
      throw new Refusal(
        'interrupts_pending',
        `This thread is waiting on a human decision (${pending.map((record) => record.id).join(', ')}); resume it with a decision for each.`,
        { interruptIds: pending.map((record) => record.id) },
      );
    }
  }
  // A browser's new turn where it already waits on the most paused threads (docs/security.md, "The open web").
  if (!deciding && request.source !== 'server') await checkPausedThreads(store, ownerId, sessionId);
  // A stopped run whose process died before it could close itself is closed first: nothing it left open runs.
  const settled = await settleStoppedRun(store, sessionId, view);
  const current = foldEvents(view, [...settled, ...expired]);
  if (runId === current.lastRun?.runId) {
    throw new Refusal(
      'run_id_reused',
      `Run "${runId}" already ran on this thread; a new run needs a fresh runId (to follow that one, re-join it with Last-Event-ID).`,
      { runId },
    );
  }
  const inputEvents = acceptInput(agent, current, { messages: request.messages, state: request.state, trusted: request.source === 'server' });
  // What the request adds, once acceptInput has set aside what the thread has (an echoed history): its ids, its text, room in the log.
  checkNewMessages(
    session,
    inputEvents.flatMap((event) => (event.type === 'message_added' ? [event.message] : [])),
  );
  if (request.retry) checkRetry(current, inputEvents);
  const continuing = deciding || Boolean(request.retry) || current.status === 'awaiting_tools';
  const model = turnModel(agent, current, request.model, continuing);

  // A new thread's session row is written by the run's first append, in its transaction (openSession checked the owner of an existing one).

  // A turn continued — after decisions, a browser tool's result, or a retry — takes the guidance its earlier run accepted and did not get to.
  resumesRunId ??= request.retry || current.status === 'awaiting_tools' ? current.lastRun?.runId : undefined;
  // A run about to create its session watches it from here: its first look beside the log may then go (first-look.ts).
  const firstLook = !session && request.durable !== false ? watchFromCreation(store, sessionId) : undefined;
  const runner = new TurnRunner({ ...request, model, resumesRunId, firstLook, signal: request.durable === false ? request.signal : undefined }, runId, view);
  const firstUserText = session?.title ? undefined : inputEvents.find((event) => event.type === 'message_added' && event.message.role === 'user');
  // A run creating its session while no other run of this process starts is prepared while that
  // append commits; its model is called once it has (turn-runner.ts, startWhileAppending). In a
  // burst, each run's first append goes out before any model work (first-look.ts).
  let ahead: Promise<void> | undefined;
  try {
    const decisions = decisionEvents(decided);
    const inputs = [...expired, ...decisions, ...inputEvents, ...(request.undo ? [undoStep(request.undo)] : [])];
    const retry = request.retry && { retryId: request.retry.retryId, attempt: (current.lastRun?.attempt ?? 1) + 1 };
    const events: SessionEvent[] = [
      ...settled,
      { type: 'run_started', runId, parentRunId: request.parentRunId, source: request.source, inputs: inputs.length, ...(retry ? { retry } : {}), model },
      ...inputs,
    ];
    const options = {
      title: firstUserText?.type === 'message_added' ? sessionTitle(firstUserText.message.content) : undefined,
      ...(session ? {} : { create: { ownerId, agent: agent.name } }),
    };
    if (firstLook?.alone()) {
      const started = runner.startWhileAppending(events, options);
      ahead = started.done;
      await started.appended;
    } else await runner.append(events, options);
    // Counted as starting until here, so that a burst's other runs wait for their first look; the
    // run stops watching once its own watch has begun (turn-runner.ts).
    firstLook?.created();
  } catch (error) {
    firstLook?.abandon();
    runner.feed.end();
    // A run started ahead stops on its own, having written nothing (turn-runner.ts).
    void ahead?.catch(() => undefined);
    if (ConcurrentAppendError.is(error) && !guessed) {
      // Two sends of the same retry at once: the one that lost follows the one that won.
      const winner = request.retry && own((await loadView(store, sessionId, agent.initialState)).retries, request.retry.retryId);
      if (winner) return followRun(request, winner);
      throw new Refusal('session_busy', `Session "${sessionKeyOf(sessionId)}" changed while this run started (another run or decision won); try again.`);
    }
    throw error;
  }
  if (decided.length > 0) crashPoint('decision-stored');
  publishFeed(runner.feed);
  // A turn's end sends the next queued message, if the session fell idle (turn-control/queue.ts).
  const done = (ahead ?? runner.execute()).then(() => (request.durable === false ? undefined : queue?.afterTurn(request)));
  return { sessionId, runId, ...readersOf(runner.feed), done, decided };
}

/** How much one request may carry: a client echoing a long history stays well inside. */
const MAX_REQUEST_MESSAGES = 2_000;
const MAX_CLIENT_TOOLS = 128;

function checkRequestSize(request: RunRequest): void {
  if (request.messages.length > MAX_REQUEST_MESSAGES) {
    throw new Refusal(
      'too_many_messages',
      `A request may carry at most ${MAX_REQUEST_MESSAGES} messages (it had ${request.messages.length}); the server keeps the history, send only what is new.`,
    );
  }
  if ((request.clientTools?.length ?? 0) > MAX_CLIENT_TOOLS) {
    throw new Refusal('too_many_tools', `A request may offer at most ${MAX_CLIENT_TOOLS} client tools (it had ${request.clientTools!.length}).`);
  }
}

/** Messages of a request the thread does not have yet. */
function newMessages(view: SessionView, messages: ChatMessage[]): ChatMessage[] {
  const known = new Set(view.messages.map((message) => message.id));
  return messages.filter((message) => !known.has(message.id));
}

/**
 * A continuation may name the run it continues (TanStack AI's client does; HttpAgent does
 * not): then it must be the run that paused on the interrupts it answers.
 */
function checkParentRun(parentRunId: string | undefined, interruptedRunIds: string[]): void {
  const interrupted = interruptedRunIds[0];
  if (parentRunId === undefined || interrupted === undefined || interruptedRunIds.every((id) => id === parentRunId)) return;
  throw new Refusal('parent_run_mismatch', `parentRunId "${parentRunId}" is not the run that paused on these interrupts ("${interrupted}").`, {
    parentRunId,
    interruptedRunId: interrupted,
  });
}

/** A retry re-runs a failed run as it was: the thread's last run failed, and nothing new comes with it. */
function checkRetry(view: SessionView, inputs: SessionEvent[]): void {
  if (view.status !== 'error') {
    throw new Refusal('nothing_to_retry', `The thread's last run did not fail (it is ${view.status}); there is nothing to retry.`);
  }
  if (inputs.length > 0) throw new Refusal('retry_with_input', 'A retry re-runs the failed call as it was: send new messages or state in a run of their own.');
}

/**
 * An identical resume that already applied: nothing runs again. The client gets the
 * thread as it stands and the outcome of the run that followed the decision.
 */
function replayRun(request: RunRequest, runId: string, view: SessionView): StartedRun {
  // Not a run of the log: its parts have no cursors.
  const feed = new RunFeed(request.sessionId, runId);
  const pending = view.openToolCalls.map((call) => call.id);
  const parts: RunPart[] = [
    { type: 'run-started', threadId: sessionKeyOf(request.sessionId), runId, parentRunId: request.parentRunId },
    { type: 'messages-snapshot', messages: view.messages },
    { type: 'state-snapshot', state: view.state },
    {
      type: 'run-finished',
      outcome:
        view.lastRun?.outcome?.type === 'cancelled' ? { type: 'cancelled' } : { type: 'success', ...(pending.length ? { pendingToolCallIds: pending } : {}) },
    },
  ];
  for (const part of parts) feed.push({ runId, part });
  return { sessionId: request.sessionId, runId, ...readersOf(feed), done: Promise.resolve() };
}

function readersOf(feed: RunFeed): Pick<StartedRun, 'parts' | 'stream'> {
  return {
    parts: {
      async *[Symbol.asyncIterator]() {
        for await (const entry of feed.read(null)) yield entry.part;
      },
    },
    stream: (after, signal) => feed.read(after ?? null, signal),
  };
}

/** The server's own step calling a compensation: shown and streamed like a model's call. */
function undoStep({ of, call, key }: { of: string; call: ToolCall; key: string }): SessionEvent {
  const messageId = randomUUID();
  return {
    type: 'assistant_step',
    message: { id: messageId, role: 'assistant', content: '', toolCalls: [call] },
    finishReason: 'tool-calls',
    stream: [
      { type: 'tool-call-start', toolCallId: call.id, toolName: call.name, parentMessageId: messageId },
      { type: 'tool-call-delta', toolCallId: call.id, delta: JSON.stringify(call.input ?? {}) },
      { type: 'tool-call-end', toolCallId: call.id },
    ],
    undoOf: of,
    undoKey: key,
  };
}
