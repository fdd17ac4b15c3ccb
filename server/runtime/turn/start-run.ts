// Starting a run. A run takes the session with a compare-and-set on the log head, together
// with everything the request brings (decisions, messages, state) — or, when the request
// may not run, writes nothing and says why. The loop itself is in runner.ts.
import { randomUUID } from 'node:crypto';
import type { DeepAgent } from '../../define';
import { ConcurrentAppendError, type EventStore, type QueuedMessage } from '../../store/types';
import { checkQueueRoom, sendQueued, untilSent } from '../turn-control/queue';
import type { CursorPosition } from '../stream/cursor';
import { follow } from '../stream/follow';
import { readDecision, type DecisionInput } from '../decisions/read-decision';
import { expiryDecision, isExpired } from '../decisions/interrupt-record';
import { planDecisions } from '../decisions/plan-decisions';
import type { ChatMessage, Decision, DecisionActor, RunSource, SessionEvent } from '../../events';
import { RunRejectedError } from '../errors/run-errors';
import { acceptInput } from './client-input';
import { crashPoint } from '../common/crash-point';
import type { RunPart, StreamPart } from '../stream/parts';
import { runHoldsSession } from '../session/run-lease';
import { publishFeed, RunFeed } from '../stream/live-feed';
import { foldEvents, pendingInterrupts, type SessionView } from '../session/reduce';
import { settleStoppedRun } from '../turn-control/stop';
import { loadView, openSession } from '../session/view-cache';
import { TurnRunner, type RunUsage } from './turn-runner';
import { checkClientTools, type ClientTool } from '../tools/tool-set';
import { own } from '../common/own';
import { sessionKeyOf } from '../session/session-id';
import { queuedWaitMs } from '../session/session-limits';

export { type RunUsage } from './turn-runner';

export interface RunRequest {
  agent: DeepAgent;
  store: EventStore;
  sessionId: string;
  ownerId: string;
  /** false for a stateless turn: the store is a throwaway one. */
  durable?: boolean;
  runId?: string;
  parentRunId?: string;
  source: RunSource;
  /** The client's messages; merged by id. */
  messages: ChatMessage[];
  clientTools?: ClientTool[];
  state?: unknown;
  /**
   * Decisions the run starts with: one per open interrupt, all or nothing (docs/hitl.md). In
   * runtime terms or as responses in the interrupts' responseSchema shape (an AG-UI resume).
   */
  decisions?: DecisionInput[];
  /** An identical replay of decisions already applied is answered, not refused (AG-UI clients resend a resume they are unsure arrived). */
  replayable?: boolean;
  /** Who makes the decisions, for the audit trail (default: the run's source and owner). */
  decidedBy?: DecisionActor;
  /**
   * Re-runs the last run, which failed: completed steps and tool results stay, the failed
   * step's partial output leaves the conversation, the model is called again. The same
   * retryId again is the same retry (docs/turn-control.md).
   */
  retry?: { retryId: string };
  /**
   * When the session is busy — a run in progress ('running'), or that or a decision pending
   * ('running-or-waiting') — the request's new user messages are queued, and the run it gets
   * is the last one's, once it goes out (docs/turn-control.md, "Queue"). Absent: refused.
   */
  queue?: 'running' | 'running-or-waiting';
  /** A stateless turn ends with its request; a durable run outlives it (only a persisted stop ends it early). */
  signal?: AbortSignal;
  /** A stateless turn's advice, in its wire's terms, for getting a turn that can wait for a person. */
  durableHint?: string;
  /**
   * The log head the caller decided to run on (recovery: a run that looked abandoned there). If
   * the log moved since — that run finished after all — the request is refused as session_busy
   * and writes nothing, rather than running the model again on a turn that was answered.
   */
  atSeq?: number;
}

const ACTOR_OF_SOURCE: Record<RunSource, DecisionActor['source']> = { agui: 'agui', openai: 'server', anthropic: 'server', hitl: 'hitl', server: 'server' };

export interface StartedRun {
  sessionId: string;
  runId: string;
  /** The run's parts from its start. Reading them is optional: the run goes on without a reader. */
  parts: AsyncIterable<RunPart>;
  /** The run's parts with their cursors, after `after` (from the start when null), live until the run ends or `signal` aborts. */
  stream(after?: CursorPosition | null, signal?: AbortSignal): AsyncIterable<StreamPart>;
  /** Settles when the run has written its last event. */
  done: Promise<void>;
  /** Tokens this run's model steps used so far (final once the run finished). */
  usage?: () => RunUsage;
  /** The decisions the run recorded with its start, as validated (edits and data parsed). */
  decided?: { interruptId: string; decision: Decision }[];
  /** The session was busy: these messages were queued; the run is the last one's, which starts when it goes out. */
  queued?: QueuedMessage[];
}

/**
 * Starts a run: checks the request against the session and takes the session. Throws
 * RunRejectedError — having written nothing — when the run may not start.
 */
export async function startRun(request: RunRequest): Promise<StartedRun> {
  const { agent, store, sessionId, ownerId } = request;
  checkRequestSize(request);
  checkClientTools(agent, request.clientTools ?? []);
  const { session, view } = await openSession(store, sessionId, ownerId, agent);
  if (request.atSeq !== undefined && view.seq !== request.atSeq) {
    throw new RunRejectedError('session_busy', `Session "${sessionKeyOf(sessionId)}" moved on (seq ${view.seq}, not ${request.atSeq}) before this run could start.`, 409);
  }
  // Interrupts past their expiry take their default action before anything else.
  const expired: SessionEvent[] = pendingInterrupts(view)
    .filter((record) => isExpired(record))
    .map((record) => ({ type: 'interrupt_decided', interruptId: record.id, decision: expiryDecision(record) }));
  const runId = request.runId ?? randomUUID();

  // The decisions are checked before the lease: a decision on an interrupt that is decided
  // already is refused as such (or, replayed, answered) even while its continuation runs.
  let decided: { interruptId: string; decision: Decision }[] = [];
  let resumesRunId: string | undefined;
  const afterExpiry = foldEvents(view, expired);
  const answers = (request.decisions ?? []).map((input) => readDecision(input, own(afterExpiry.interrupts, input.interruptId)?.record));
  if (answers.length) {
    const by: DecisionActor = request.decidedBy ?? { source: ACTOR_OF_SOURCE[request.source], ownerId };
    const plan = await planDecisions(agent, afterExpiry, answers, by, {
      elsewhere: async (id) => {
        const row = await store.findInterrupt(id);
        return row !== null && row.sessionId !== sessionId && row.ownerId === ownerId;
      },
      replayable: request.replayable ?? false,
      partial: false,
    });
    const interrupted = answers.map((answer) => afterExpiry.interrupts[answer.interruptId]!.record.runId);
    checkParentRun(request.parentRunId, interrupted);
    resumesRunId = interrupted[0];
    if (plan.kind === 'replay') return replayRun(request, runId, afterExpiry);
    decided = plan.decisions;
  }
  // The same retry again (a double click, a resend) follows the run it started.
  const retried = request.retry && own(view.retries, request.retry.retryId);
  if (retried) return followRun(request, retried);
  const running = runHoldsSession(view, session);
  if (session && !answers.length && !request.retry && request.durable !== false && request.queue) {
    const waiting = request.queue === 'running-or-waiting' && pendingInterrupts(afterExpiry).length > 0;
    if (running || waiting) {
      const fresh = newMessages(view, request.messages);
      if (fresh.length > 0 && fresh.every((message) => message.role === 'user' || (message.role === 'system' && request.source === 'server'))) return queueRun(request, fresh);
    }
  }
  if (running) {
    throw new RunRejectedError('session_busy', `Session "${sessionKeyOf(sessionId)}" is running another turn; try again when it finishes.`, 409);
  }
  if (!answers.length) {
    const pending = pendingInterrupts(afterExpiry);
    if (pending.length > 0) {
      throw new RunRejectedError('interrupts_pending', `This thread is waiting on a human decision (${pending.map((record) => record.id).join(', ')}); resume it with a decision for each.`, 409, { interruptIds: pending.map((record) => record.id) });
    }
  }
  // A stopped run whose process died before it could close itself is closed first: nothing it left open runs.
  const settled = await settleStoppedRun(store, sessionId, view);
  const current = foldEvents(view, [...settled, ...expired]);
  if (runId === current.lastRun?.runId) {
    throw new RunRejectedError('run_id_reused', `Run "${runId}" already ran on this thread; a new run needs a fresh runId (to follow that one, re-join it with Last-Event-ID).`, 409, { runId });
  }
  const inputEvents = acceptInput(agent, current, { messages: request.messages, state: request.state, trusted: request.source === 'server' });
  if (request.retry) checkRetry(current, inputEvents);

  // A new thread's session row is written by the run's first append, in its transaction (openSession checked the owner of an existing one).

  // A turn continued — after decisions, a browser tool's result, or a retry — takes the guidance its earlier run accepted and did not get to.
  resumesRunId ??= (request.retry || current.status === 'awaiting_tools') ? current.lastRun?.runId : undefined;
  const runner = new TurnRunner({ ...request, resumesRunId, signal: request.durable === false ? request.signal : undefined }, runId, view);
  const firstUserText = session?.title ? undefined : inputEvents.find((event) => event.type === 'message_added' && event.message.role === 'user');
  try {
    const decisions: SessionEvent[] = decided.map(({ interruptId, decision }) => ({ type: 'interrupt_decided', interruptId, decision }));
    const inputs = [...expired, ...decisions, ...inputEvents];
    const retry = request.retry && { retryId: request.retry.retryId, attempt: (current.lastRun?.attempt ?? 1) + 1 };
    await runner.append([...settled, { type: 'run_started', runId, parentRunId: request.parentRunId, source: request.source, inputs: inputs.length, ...(retry ? { retry } : {}) }, ...inputs], {
      title: firstUserText?.type === 'message_added' ? sessionTitle(firstUserText.message.content) : undefined,
      ...(session ? {} : { create: { ownerId, agent: agent.name } }),
    });
  } catch (error) {
    runner.feed.end();
    if (ConcurrentAppendError.is(error)) {
      // Two sends of the same retry at once: the one that lost follows the one that won.
      const winner = request.retry && own((await loadView(store, sessionId, agent.initialState)).retries, request.retry.retryId);
      if (winner) return followRun(request, winner);
      throw new RunRejectedError('session_busy', `Session "${sessionKeyOf(sessionId)}" changed while this run started (another run or decision won); try again.`, 409);
    }
    throw error;
  }
  if (decided.length > 0) crashPoint('decision-stored');
  publishFeed(runner.feed);
  // A turn's end sends the next queued message, if the session fell idle (queue.ts).
  const done = runner.execute().then(() => (request.durable === false ? undefined : sendNextQueued(request)));
  return { sessionId, runId, ...readersOf(runner.feed), done, usage: () => ({ ...runner.usage }), decided };
}

/** How much one request may carry: a client echoing a long history stays well inside. */
export const MAX_REQUEST_MESSAGES = 2_000;
export const MAX_CLIENT_TOOLS = 128;

function checkRequestSize(request: RunRequest): void {
  if (request.messages.length > MAX_REQUEST_MESSAGES) {
    throw new RunRejectedError('too_many_messages', `A request may carry at most ${MAX_REQUEST_MESSAGES} messages (it had ${request.messages.length}); the server keeps the history, send only what is new.`, 400);
  }
  if ((request.clientTools?.length ?? 0) > MAX_CLIENT_TOOLS) {
    throw new RunRejectedError('too_many_tools', `A request may offer at most ${MAX_CLIENT_TOOLS} client tools (it had ${request.clientTools!.length}).`, 400);
  }
}

/** Messages of a request the thread does not have yet. */
function newMessages(view: SessionView, messages: ChatMessage[]): ChatMessage[] {
  const known = new Set(view.messages.map((message) => message.id));
  return messages.filter((message) => !known.has(message.id));
}

/**
 * The request's messages go to the queue; its run is the last one's, followed once it goes out.
 * A reader waits for that at most queuedWaitMs(): then its stream ends with `message_queued`
 * (the message stays queued, and its run is named), rather than hanging while a long turn runs.
 */
async function queueRun(request: RunRequest, messages: ChatMessage[]): Promise<StartedRun> {
  const { store, sessionId, agent } = request;
  await checkQueueRoom(store, sessionId, messages);
  const queued: QueuedMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const last = index === messages.length - 1;
    queued.push(await store.enqueue({ sessionId, message, runId: (last && request.runId) || randomUUID(), source: request.source }));
  }
  const item = queued.at(-1)!;
  const followed = followRun(request, item.runId);
  async function* stream(after?: CursorPosition | null, signal?: AbortSignal): AsyncIterable<StreamPart> {
    if (!(await untilSent(store, agent, item, signal, queuedWaitMs()))) {
      if (signal?.aborted) return;
      yield { runId: item.runId, part: { type: 'run-started', threadId: sessionKeyOf(sessionId), runId: item.runId } };
      yield {
        runId: item.runId,
        part: {
          type: 'run-error',
          code: 'message_queued',
          message: `Message "${item.message.id}" is queued behind the turn in progress and goes out, as run "${item.runId}", when the thread is free; this request stopped waiting. Follow the thread to see its answer.`,
          details: { messageId: item.message.id, runId: item.runId },
        },
      };
      return;
    }
    yield* followed.stream(after, signal);
  }
  return {
    ...followed,
    parts: {
      async *[Symbol.asyncIterator]() {
        for await (const entry of stream(null, request.signal)) yield entry.part;
      },
    },
    stream,
    queued,
  };
}

/** Sends the next queued message once a run ended; a failure to do so is logged, never the run's. */
async function sendNextQueued(request: RunRequest): Promise<void> {
  try {
    const next = await sendQueued(request.store, request.agent, request.sessionId);
    await next?.done;
  } catch (error) {
    console.error(`[stackbone] could not send the next queued message of ${request.sessionId}:`, error);
  }
}

/**
 * A continuation may name the run it continues (TanStack AI's client does; HttpAgent does
 * not): then it must be the run that paused on the interrupts it answers.
 */
function checkParentRun(parentRunId: string | undefined, interruptedRunIds: string[]): void {
  const interrupted = interruptedRunIds[0];
  if (parentRunId === undefined || interrupted === undefined || interruptedRunIds.every((id) => id === parentRunId)) return;
  throw new RunRejectedError('parent_run_mismatch', `parentRunId "${parentRunId}" is not the run that paused on these interrupts ("${interrupted}").`, 409, { parentRunId, interruptedRunId: interrupted });
}

/** A retry re-runs a failed run as it was: the thread's last run failed, and nothing new comes with it. */
function checkRetry(view: SessionView, inputs: SessionEvent[]): void {
  if (view.status !== 'error') {
    throw new RunRejectedError('nothing_to_retry', `The thread's last run did not fail (it is ${view.status}); there is nothing to retry.`, 409);
  }
  if (inputs.length > 0) throw new RunRejectedError('retry_with_input', 'A retry re-runs the failed call as it was: send new messages or state in a run of their own.', 400);
}

/** A run that already started, followed from its start: live while it runs, replayed once it ended. */
function followRun(request: RunRequest, runId: string): StartedRun {
  const { store, sessionId, agent } = request;
  const stream = (after?: CursorPosition | null, signal?: AbortSignal) => follow({ store, sessionId, initialState: agent.initialState, after: after ?? null, runId, signal });
  return {
    sessionId,
    runId,
    parts: {
      async *[Symbol.asyncIterator]() {
        for await (const entry of stream()) yield entry.part;
      },
    },
    stream,
    // The run was started (and is kept alive) by the request that started it.
    done: Promise.resolve(),
  };
}

/** A session's title: its first user message, on one line, cut at a word. */
export function sessionTitle(text: string, max = 80): string {
  // Control characters (NUL above all: PostgreSQL text cannot hold it) never reach a title.
  const line = text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
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
    { type: 'run-finished', outcome: view.lastRun?.outcome?.type === 'cancelled' ? { type: 'cancelled' } : { type: 'success', ...(pending.length ? { pendingToolCallIds: pending } : {}) } },
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

