// The step loop of one run. It advances a conversation — the root thread, or a delegated
// task's — by alternating tool calls and model steps until the model answers in text, a
// call waits for a person or the browser, or the run is stopped. Each model step is one
// coalesced event: writes grow with steps, never with tokens. The run is a span, its model and
// tool calls its children (docs/observability.md).
import type { RunFailureCode } from '../../error-codes';
import type { InterruptRecord } from '../../store/pauses';
import type { RunFailureDetails, RunOutcome, SessionEvent, StreamedPart } from '../../store/events';
import type { ToolCall } from '../../store/messages';
import { ConcurrentAppendError, UnseenGuidanceError } from '../../store/types';
import { crashPoint } from '../common';
import { approvalContextOf, buildInterrupt, denialResult, gateToolCall, type ToolGate } from '../decisions';
import { LeaseLostError, logFailure } from '../errors';
import {
  conversationOf,
  foldEvents,
  holdSession,
  modelOf,
  pendingInterrupts,
  sessionKeyOf,
  toolCallIdsOf,
  type SessionView,
  type StopReason,
} from '../session';
import { formatCursor, RunFeed } from '../stream';
import { loadMcpTools, runInLanes, scheduleTimer, ToolError, toolKind, toolLaneOf, type HandlerContext, type ToolKind } from '../tools';
import { sentMessages } from '../context';
import { compactIfOverBudget } from './compact-step';
import { toModelMessages } from './model-messages';
import { streamModelStep } from './model-step';
import { BetweenSteps } from './between-steps';
import { delegateTask, type TaskHost } from './delegate-task';
import type { Advance, ResultOutcome, RunnerRequest, Scope } from './run-types';
import { notRunResults } from './stopped-run';
import { stepRecord } from './step-record';
import { toolResultEvents } from './tool-result';
import { runServerToolCall, type ToolCallHost } from './server-tool-call';
import { RunWriter, type RunAppendOptions } from './run-writer';
import { endRunSpan, formatTraceparent, inSpan, startRunSpan, telemetryOn, type RunFacts } from '../../telemetry';

export type { RunnerRequest } from './run-types';

/** A model step not made: something was heard beside the log while the run's first append committed (modelStep). */
const LOOK_FIRST = Symbol('look first');

/** Why a prepared first model call was not made (modelStep); never reaches a provider or a client. */
class LookFirstError extends Error {
  constructor() {
    super('Something was written beside the log while the run started: it looks there before its model call.');
    this.name = 'LookFirstError';
  }
}

export class TurnRunner {
  /** Everything this run streamed so far: what a response, or a client re-joining here, reads. */
  readonly feed: RunFeed;
  private readonly controller = new AbortController();
  private readonly root: Scope;
  private readonly writer: RunWriter;
  private readonly betweenSteps: BetweenSteps;
  /** What a delegated task uses of its run (delegate-task.ts). */
  private readonly taskHost: TaskHost = {
    view: () => this.view,
    append: (events) => this.append(events),
    advance: (scope) => this.advance(scope),
    recordResult: (scope, call, outcome, before, after) => this.recordResult(scope, call, outcome, before, after),
  };
  /** What a server tool call uses of its run (server-tool-call.ts). */
  private readonly toolCallHost: ToolCallHost = {
    view: () => this.view,
    runId: () => this.runId,
    request: () => this.request,
    signal: () => this.signal,
    append: (events) => this.append(events),
    recordResult: (scope, call, outcome) => this.recordResult(scope, call, outcome),
    session: (scope) => ({ ...this.sessionFacts(scope), schedule: this.schedule }),
  };
  /** A queued message was sent now: this run ended at a step boundary to make way for it. */
  private madeWay = false;
  /** The run's span as a traceparent, kept with the interrupts it opens; undefined with telemetry off. */
  private traceparent: string | undefined;
  /** Started while its first append commits (startWhileAppending): that append, which the run's first model call waits for; cleared once that call is made. */
  private firstCallAfter: Promise<void> | undefined;

  constructor(
    private readonly request: RunnerRequest,
    private readonly runId: string,
    view: SessionView,
  ) {
    this.root = { agent: request.agent, live: true, clientTools: request.clientTools ?? [], model: modelOf(request.agent, request.model) };
    this.feed = new RunFeed(request.sessionId, runId);
    this.betweenSteps = new BetweenSteps(request.store, request.sessionId, runId, request.resumesRunId);
    // A lost lease stops the run at once: its tools' signals abort.
    this.writer = new RunWriter(request.store, request.sessionId, view, this.feed, () => this.controller.abort({ code: 'lease_lost' }));
    request.signal?.addEventListener('abort', () => this.controller.abort(request.signal?.reason), { once: true });
    if (request.signal?.aborted) this.controller.abort(request.signal.reason);
  }

  private get signal() {
    return this.controller.signal;
  }

  /** The stop that aborted this run, if one did. */
  private get stopped(): StopReason | undefined {
    const reason = this.signal.reason as StopReason | undefined;
    return reason && typeof reason === 'object' && reason.code === 'stopped' ? reason : undefined;
  }

  /** Appends events at the head this run last saw, folds them into its view, and streams what they show (run-writer.ts). */
  append(events: SessionEvent[] | ((view: SessionView) => SessionEvent[]), options: RunAppendOptions = {}): Promise<void> {
    return this.writer.append(events, options);
  }

  /**
   * Runs the turn while its first append commits: the first model step is prepared on the view
   * that append makes — instructions, messages, tools — and the model is called once the append
   * has committed, so that nothing leaves the process, and nothing streams, for a turn whose input
   * is not in the log. If the append fails the run stops, having written and called nothing. For a
   * run that creates its session alone (start-run.ts): its model call no longer waits for a
   * database round trip and then for its own preparation (docs/internals/benchmarks.md, "Where a short turn's time goes on PostgreSQL").
   */
  startWhileAppending(events: SessionEvent[], options: RunAppendOptions): { appended: Promise<void>; done: Promise<void> } {
    const appended = this.writer.appendAhead(events, options);
    this.firstCallAfter = appended;
    // The preparation starts once the append's statement is on its way: started at once, its
    // promise chain (~1 ms of instructions, messages, tools) would run before pg hands the append a
    // pooled connection, which pg does on a later tick, and hold the statement back by as much.
    const sent = new Promise<void>((resolve) => setImmediate(resolve));
    return { appended, done: sent.then(() => this.execute()) };
  }

  /** The thread as this run last wrote it. */
  private get view(): SessionView {
    return this.writer.view;
  }

  /** The first look for a stop on record (execute); settled before any tool or model call. */
  private stopChecked: Promise<void> = Promise.resolve();
  /** Looks for a stop on record (run-lease.ts); set once the run holds its session. */
  private checkStop: () => Promise<void> = () => Promise.resolve();
  /** Whether the first step boundary looks beside the log (first-look.ts); every later one does. */
  private lookFirst = true;

  async execute(): Promise<void> {
    const span = startRunSpan({
      agent: this.request.agent.name,
      conversationId: sessionKeyOf(this.request.sessionId),
      runId: this.runId,
      model: this.request.model,
      source: this.request.source,
      resumes: this.resumedInterrupts(),
    });
    this.traceparent = formatTraceparent(span.spanContext());
    try {
      await inSpan(span, () => this.run());
    } finally {
      const lastRun = this.view.lastRun;
      endRunSpan(span, lastRun?.runId === this.runId ? lastRun : undefined);
    }
  }

  /** The paused run this one goes on from and its decided interrupts, which its span links to; only with telemetry on. */
  private resumedInterrupts(): RunFacts['resumes'] {
    const runId = this.request.resumesRunId;
    if (!runId || !telemetryOn()) return undefined;
    const decided = Object.values(this.view.interrupts).filter(({ record, decision }) => record.runId === runId && decision);
    return { runId, interrupts: decided.map(({ record }) => ({ id: record.id, traceparent: record.traceparent })) };
  }

  private async run(): Promise<void> {
    const hold = holdSession({
      store: this.request.store,
      sessionId: this.request.sessionId,
      runId: this.runId,
      durable: this.request.durable !== false,
      renew: () => this.writer.renewLease(),
      // A persisted stop aborts the run's signal; tools get it through handlerContext().signal.
      onStop: (reason) => this.controller.abort(reason),
      onLost: () => {
        console.error(`[stackbone] run ${this.runId} of ${this.request.sessionId} lost its lease to another run; it stops here.`);
        this.writer.loseLease();
      },
    });
    try {
      // A stop recorded before the run began is looked for before anything runs. With no tool call
      // to run first, that look goes out with the first step's other reads (advance, below): on
      // PostgreSQL one wait instead of two before the first token.
      // A run that created its session, alone and with nothing heard since, has nothing to look for (first-look.ts).
      // A run started ahead of its creating append was alone when it began (start-run.ts): it has nothing to look for either.
      const firstLook = this.request.firstLook;
      const startedAhead = this.firstCallAfter !== undefined;
      this.lookFirst = startedAhead ? false : (firstLook?.needed() ?? true);
      // The session is watched from before its creating append until here, where the run's own
      // watch has begun: a write beside the log in between is heard by one or the other.
      firstLook?.release();
      this.checkStop = hold.checkStop;
      this.stopChecked = this.lookFirst ? hold.checkStop() : Promise.resolve();
      if (conversationOf(this.view, this.root.id).openToolCalls.length > 0) await this.stopChecked;
      // The agent's MCP tools, listed before anything reads its tool set (docs/mcp.md).
      await loadMcpTools(this.request.agent);
      const end = await this.advance(this.root);
      switch (end.kind) {
        case 'answered':
          if (end.written) return;
          return await this.finish({ type: 'success' }, [end.step]);
        case 'paused':
          return await this.pause(end.opened);
        case 'awaiting-client':
          return await this.finish({ type: 'success', pendingToolCallIds: end.toolCallIds });
        case 'cancelled':
          return await this.finish({ type: 'cancelled' }, [
            ...end.before,
            ...(this.stopped ? notRunResults(foldEvents(this.view, end.before).openToolCalls) : []),
          ]);
        case 'failed':
          return await this.fail(end.code, end.message, end.before, end.details);
      }
    } catch (error) {
      if (ConcurrentAppendError.is(error) || LeaseLostError.is(error)) {
        // Our lease ran out and another run took the session: it owns the log now.
        this.feed.push({
          runId: this.runId,
          part: {
            type: 'run-error',
            code: 'lease_lost',
            message: 'Another run took over this session (this server stalled past its lease); this run stopped, and the session goes on there.',
          },
        });
      } else {
        // The cause goes to the server's log, not to clients (it may be a database's own text).
        const reference = logFailure(`run ${this.runId} of ${this.request.sessionId} failed`, error);
        const message = `The server failed while running this turn (ref ${reference}; the details are in its log).`;
        await this.fail('internal_error', message).catch(() => undefined);
        // A step that streamed live and then failed to be written leaves its parts in the feed under
        // the cursors its event would have had; run_failed takes the first of them, so the feed drops
        // its error as streamed already (or it was never written). The live stream still ends with it.
        if (!this.feed.ended) this.feed.push({ runId: this.runId, part: { type: 'run-error', code: 'internal_error', message } });
      }
    } finally {
      hold.release();
      this.feed.end();
    }
  }

  private async advance(scope: Scope): Promise<Advance> {
    for (let steps = 0; ;) {
      const ask: ToolCall[] = [];
      const runnable: { call: ToolCall; kind: ToolKind; gate: Extract<ToolGate, { action: 'run' }> }[] = [];
      const opened: InterruptRecord[] = [];
      let waiting = false;
      let cancelled = false;
      for (const call of conversationOf(this.view, scope.id).openToolCalls) {
        if (this.signal.aborted) return { kind: 'cancelled', before: [] };
        const kind = toolKind(scope.agent, scope.clientTools, call.name);
        if (kind === 'client') continue;
        if (kind === 'delegate') {
          const task = await delegateTask(this.taskHost, scope, call);
          if (task.kind === 'paused') {
            opened.push(...task.opened);
            waiting = true;
          } else if (task.kind === 'cancelled' || task.kind === 'failed') {
            return task;
          }
          continue;
        }
        const gate = await gateToolCall({
          view: this.view,
          agent: scope.agent,
          call,
          kind,
          sessionId: this.request.sessionId,
          sessionOwnerId: this.request.ownerId,
          runId: this.runId,
          durable: this.request.durable !== false,
          history: () => toModelMessages(this.sentMessages(scope)),
          durableHint: this.request.durableHint,
        });
        switch (gate.action) {
          case 'ask':
            ask.push(call);
            break;
          case 'wait':
            waiting = true;
            break;
          case 'cancel':
            // The turn ends once the rest of the batch has had its decisions applied.
            await this.recordResult(scope, call, {
              ok: false,
              content: 'Cancelled by the user: the tool did not run.',
              state: this.view.state,
              status: 'cancelled',
            });
            cancelled = true;
            break;
          case 'deny':
            await this.recordResult(scope, call, { ok: true, ...denialResult(gate), state: this.view.state, status: 'denied' });
            break;
          case 'refuse':
            // Not run, and nobody decided so: an error result the model reads (fail closed).
            await this.recordResult(scope, call, { ok: false, content: gate.content, state: this.view.state });
            break;
          case 'run':
            runnable.push({ call, kind, gate });
            break;
        }
      }
      // The calls that may run start together; those sharing a lane go one at a time (tools/tool-lanes.ts).
      // A call whose turn in its lane comes after a stop does not start: the stop closes it as not run.
      const questions = await runInLanes(
        runnable,
        ({ call }) => toolLaneOf(scope.agent, call.name),
        async ({ call, kind, gate }) => (this.signal.aborted ? undefined : runServerToolCall(this.toolCallHost, scope, call, kind, gate)),
      );
      opened.push(...questions.filter((question) => question !== undefined));
      if (this.signal.aborted) return { kind: 'cancelled', before: [] };
      if (cancelled) {
        // Approved calls of the batch ran and denied ones are answered; whatever is still open
        // is closed, so nothing of this step runs later on an unrelated message.
        for (const call of conversationOf(this.view, scope.id).openToolCalls) {
          await this.recordResult(scope, call, {
            ok: false,
            content: 'Not run: another call of its batch was cancelled, which ended the turn.',
            state: this.view.state,
            status: 'cancelled',
          });
        }
        return { kind: 'cancelled', before: [] };
      }
      // What each approver needs to know, looked up once, side by side (docs/hitl.md, "Approval context").
      const contexts = await Promise.all(ask.map((call) => approvalContextOf(scope.agent, call, { sessionId: this.request.sessionId, signal: this.signal })));
      opened.push(...ask.map((call, i) => buildInterrupt(scope.agent, call, this.runId, scope.id, Date.now(), contexts[i])));
      if (opened.length > 0 || waiting) return { kind: 'paused', opened };
      const clientCalls = conversationOf(this.view, scope.id).openToolCalls.map((call) => call.id);
      if (clientCalls.length > 0) return { kind: 'awaiting-client', toolCallIds: clientCalls };
      if (steps >= scope.agent.maxSteps) {
        return { kind: 'failed', code: 'max_steps_exceeded', message: `Agent "${scope.agent.name}" took ${steps} model steps without finishing.` };
      }
      // Both read beside the log, at once (one wait, not two, on PostgreSQL): a queued message sent
      // now ends the turn here, between steps (docs/turn-control.md, "Queue"); guidance a person
      // added while the run worked goes in before the model's next call.
      const look = this.lookFirst;
      this.lookFirst = true;
      const [sentNow, guidance] = look
        ? await Promise.all([
            scope.live && this.request.durable !== false ? this.betweenSteps.queuedSentNow() : false,
            this.takeSteers(scope),
            this.stopChecked,
          ])
        : [false, []];
      // A stop found by the first look: nothing more runs.
      if (this.signal.aborted) return { kind: 'cancelled', before: [] };
      if (sentNow) {
        this.madeWay = true;
        return { kind: 'cancelled', before: [] };
      }
      steps++;
      if (guidance.length) await this.append(guidance);
      const step = await this.modelStep(scope);
      if (step === LOOK_FIRST) {
        steps--;
        this.lookFirst = true;
        // Something was written beside the log while the run was created, before the run watched
        // its session: a stop among it is looked for too, not only guidance and the queue.
        this.stopChecked = this.checkStop();
        continue;
      }
      if (step?.kind === 'answered') {
        // The model answered: the turn ends with it, unless guidance came in meanwhile.
        if (await this.endOnAnswer(scope, step.step)) return { ...step, written: true };
        // Guidance came in meanwhile: the turn goes on with it.
        const late = await this.takeSteers(scope);
        if (late.length) {
          await this.append([step.step, ...late]);
          continue;
        }
      }
      if (step) return step;
    }
  }

  /**
   * Ends the root thread's turn on the model's answer, in one write that the store refuses while
   * the run has guidance it has not read (AppendOptions.unlessGuidance): no read of the guidance
   * first, one round trip instead of two on PostgreSQL
   * (docs/internals/benchmarks.md, "Where a short turn's time goes on PostgreSQL").
   * False, with nothing written, when there is guidance to read, or when the conversation takes
   * none (a delegated task's, a stateless turn's): the step loop reads it then, as before.
   */
  private async endOnAnswer(scope: Scope, step: SessionEvent): Promise<boolean> {
    if (scope !== this.root || !scope.live || this.request.durable === false) return false;
    try {
      await this.finish({ type: 'success' }, [step], this.betweenSteps.unread());
      return true;
    } catch (error) {
      if (UnseenGuidanceError.is(error)) return false;
      throw error;
    }
  }

  /** Ends the run waiting for decisions: the thread as it stands, then every open interrupt. */
  private async pause(opened: InterruptRecord[]): Promise<void> {
    const waiting = [...pendingInterrupts(this.view), ...opened];
    const outcome: RunOutcome = { type: 'interrupt', interruptIds: waiting.map((record) => record.id) };
    // Each keeps the run's span: the decision's approval span links to it, in whichever process (docs/observability.md).
    const { traceparent } = this;
    const interrupts = traceparent ? opened.map((record) => ({ ...record, traceparent })) : opened;
    await this.append([...(opened.length ? [{ type: 'interrupts_opened' as const, interrupts }] : []), { type: 'run_finished', runId: this.runId, outcome }]);
  }

  /**
   * One model call on a conversation, streamed live on the root thread; recorded as one
   * assistant_step event. Returns where the conversation stopped, or undefined to go on.
   */
  private async modelStep(scope: Scope): Promise<Advance | typeof LOOK_FIRST | undefined> {
    await this.compactContext(scope);
    // The step streams under the seq it will be written at; the log keeps the stream with it.
    const stepSeq = this.view.seq + 1;
    const streamed: StreamedPart[] = [];
    // Where a crash test may kill this stream, a few words in (common/crash-point.ts): the step after a tool result continues a turn.
    const streaming = conversationOf(this.view, scope.id).messages.at(-1)?.role === 'tool' ? 'continuation-stream' : 'model-stream';
    // Started ahead, the run calls its model once its first append is in, and only if nothing was
    // heard beside the log meanwhile (first-look.ts): else it looks first after all, and prepares the step again.
    const appended = this.firstCallAfter;
    this.firstCallAfter = undefined;
    let lookFirst = false;
    const before = appended?.then(() => {
      if (!this.request.firstLook?.needed()) return;
      lookFirst = true;
      throw new LookFirstError();
    });
    // Seen by the model call when it is made; a step that ends before it (a stop, instructions that throw) leaves it unread.
    before?.catch(() => undefined);
    const result = await streamModelStep({
      agent: scope.agent,
      model: scope.model,
      messages: this.sentMessages(scope),
      clientTools: scope.clientTools,
      signal: this.signal,
      attempt: this.view.lastRun?.attempt ?? 1,
      usedCallIds: toolCallIdsOf(this.view),
      instructionsContext: { state: structuredClone(this.view.state), session: this.sessionFacts(scope) },
      before,
      emit: (part) => {
        if (scope.live) {
          this.feed.push({ cursor: formatCursor(stepSeq, streamed.length), runId: this.runId, part });
          streamed.push(part);
        }
        if (part.type === 'text-delta') crashPoint(streaming);
      },
    });
    if (lookFirst) return LOOK_FIRST;
    const recorded = stepRecord(result, {
      scope: scope.id,
      streamed,
      stepSeq,
      aborted: this.signal.aborted,
      frontier: this.stopped?.frontier ?? null,
      failedCall: `the model call of run ${this.runId} (session ${this.request.sessionId})`,
    });
    if (recorded.kind !== 'tool-calls') return recorded;
    const { step } = recorded;
    await this.append([step]);
    crashPoint('tool-call-stored');
    return undefined;
  }

  /** What a model step is sent of a conversation: every message, or the latest compaction's summary and what followed. */
  private sentMessages(scope: Scope) {
    const conversation = conversationOf(this.view, scope.id);
    return sentMessages(conversation.messages, conversation.contextCompactions);
  }

  /**
   * Compacts a conversation over its agent's context budget (docs/models.md, "Long threads").
   * The compaction is in the log before the step that uses it: a crash in between re-runs
   * the step on it, and a crash before it makes the summary again.
   */
  private async compactContext(scope: Scope): Promise<void> {
    const compaction = await compactIfOverBudget({
      agent: scope.agent,
      model: scope.model,
      conversation: conversationOf(this.view, scope.id),
      signal: this.signal,
      what: `run ${this.runId} (session ${this.request.sessionId})`,
    });
    if (compaction) await this.append([{ type: 'context_compacted', compaction, ...(scope.id ? { scope: scope.id } : {}) }]);
  }

  /** Guidance to take in before the next model call; only the root thread of a durable run has any. */
  private takeSteers(scope: Scope): Promise<SessionEvent[]> {
    if (!scope.live || this.request.durable === false) return Promise.resolve([]);
    return this.betweenSteps.guidance(new Set(this.view.messages.map((message) => message.id)));
  }

  /** The session as a tool's context and dynamic instructions name it. */
  private sessionFacts(scope: Scope) {
    return { id: this.request.sessionId, agent: scope.agent.name, ownerId: this.request.ownerId, durable: this.request.durable !== false };
  }

  /** handlerContext().session.schedule: a durable session's timers; a stateless turn has none. */
  private readonly schedule: HandlerContext['session']['schedule'] = (key, when, ...messages) => {
    if (this.request.durable === false)
      return Promise.reject(new ToolError('schedule(): a stateless turn has no session to schedule on; send a session id to keep one.'));
    return scheduleTimer(this.request.store, this.request.sessionId, key, when, messages);
  };

  private async recordResult(scope: Scope, call: ToolCall, outcome: ResultOutcome, before: SessionEvent[] = [], after: SessionEvent[] = []) {
    // Built when its turn to write comes, against the state as it is then.
    await this.append((view) => [...before, ...toolResultEvents(scope.id, call, outcome, view.state), ...after]);
  }

  private async finish(outcome: RunOutcome, before: SessionEvent[] = [], unlessGuidance?: RunAppendOptions['unlessGuidance']): Promise<void> {
    const stop = this.stopped ?? (this.madeWay ? { frontier: null, by: { source: 'queue' } } : undefined);
    await this.append(
      [
        ...before,
        {
          type: 'run_finished',
          runId: this.runId,
          outcome,
          ...(stop && outcome.type === 'cancelled' ? { stop: { frontier: stop.frontier, by: stop.by } } : {}),
        },
      ],
      unlessGuidance ? { unlessGuidance } : {},
    );
  }

  private async fail(code: RunFailureCode, message: string, before: SessionEvent[] = [], details?: RunFailureDetails): Promise<void> {
    await this.append([...before, { type: 'run_failed', runId: this.runId, code, message, ...(details ? { details } : {}) }]);
  }
}
