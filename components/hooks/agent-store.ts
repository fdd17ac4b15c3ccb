// The framework-free core of useAgent: one AG-UI thread in the browser, over @ag-ui/client's
// HttpAgent. It owns the agent object, turns its callbacks into one immutable snapshot, and
// runs the frontend-tool loop. It also listens to the thread's session stream, so a run this
// tab did not start (a refresh mid-turn, another tab, a decision's continuation) shows live
// too. React (useAgent.ts) only subscribes to it, the way TanStack Query's adapters sit on its
// core.
import {
  randomUUID,
  type AgentSubscriber,
  type BaseEvent,
  type HttpAgentConfig,
  type Interrupt,
  type MiddlewareFunction,
  type Message,
  type ResumeEntry,
  type State,
  type Tool,
} from '@ag-ui/client';
import type { Observable } from 'rxjs';
import type { QueueItem } from '@/server/contract';
import { findToolCall, toolResultMessage } from './frontend-tools';
import { SessionFeed, type EventSourceLike } from './session-feed';
import { ThreadHttpAgent } from './thread-http-agent';
import {
  interruptDetails,
  stageCancel,
  stageDecision,
  type InterruptDetails,
  type InterruptResolution,
  type ResolveOptions,
} from './interrupt-resolution';

export type { DecisionKind, InterruptKind, InterruptResolution, ResolveOptions } from './interrupt-resolution';
export type { QueueItem } from '@/server/contract';

export type AgentStatus = 'idle' | 'running' | 'error';

export interface AgentError {
  message: string;
  /** The RUN_ERROR code, or the JSON error code of a refused request. */
  code?: string;
  /** A request between turns was refused (a queue change, a state write, a decision); no run failed. */
  refused?: true;
}

/** A tool the browser runs: an AG-UI Tool definition plus the code that answers it. */
export interface FrontendTool<Args = any> extends Tool {
  handler: (args: Args, context: { toolCallId: string; signal: AbortSignal }) => unknown | Promise<unknown>;
}

/**
 * An open interrupt as the UI needs it: the AG-UI interrupt, its metadata lifted out, the
 * decision staged for it so far, and the commands that stage one. A batch is submitted as
 * one resume run once every interrupt in it is validly staged.
 */
export interface PendingInterrupt extends Interrupt, InterruptDetails {
  resolution: InterruptResolution | null;
  /** Stages approve / reject (with edits, approval data, or the answer); may submit the batch. */
  resolveInterrupt: (approved: boolean, options?: ResolveOptions) => Promise<void>;
  /** Stages a cancel: the tool never runs and the turn ends. */
  cancel: () => Promise<void>;
  /** Takes the staged decision back (not once it is submitted). */
  clearResolution: () => void;
  /**
   * Declines to answer a question (`input_required`): the tool is told the person would not
   * answer, and the turn goes on. Sent at once, on its own.
   */
  decline: (reason?: string) => Promise<void>;
}

/**
 * What resolveInterrupts' callback may return for an interrupt: nothing (it resolved the
 * interrupt itself, through `interrupt.resolveInterrupt(...)` or `interrupt.cancel()`, or left
 * it), a boolean, approve/reject with options, or a cancel.
 */
export type InterruptDecision = void | undefined | boolean | 'cancel' | (ResolveOptions & { approved: boolean });

export interface AgentSnapshot {
  messages: readonly Message[];
  state: State;
  status: AgentStatus;
  error: AgentError | null;
  /** The assistant message receiving streamed text right now. */
  streamingMessageId: string | null;
  /** Subagent steps in progress (STEP_STARTED without its STEP_FINISHED). */
  activeSteps: readonly string[];
  /** Decisions the last run is waiting on, each with its staged resolution. */
  interrupts: readonly PendingInterrupt[];
  /** The server knows this thread: it had messages when loaded, or a run has started on it. */
  threadExists: boolean;
  /**
   * The last submission of decisions failed in a way that sending the same ones again may
   * fix (the connection, a busy thread), and every interrupt is still validly staged.
   */
  canRetryInterrupts: boolean;
  /** The last run failed on the server (a model error, a fault): retry() runs it again. */
  canRetry: boolean;
  /**
   * Messages sent while a turn ran or waited on a decision, in the order they go out
   * (docs/turn-control.md, "Queue"): the same in every tab, live from the session stream.
   */
  queue: readonly QueueItem[];
}

export interface AgentStoreOptions {
  agent: string;
  threadId: string;
  /** Defaults to the AG-UI route of the agent. */
  url?: string;
  headers?: Record<string, string>;
  /** The thread as the server rendered it (first paint); the store continues from it. */
  initialMessages?: Message[];
  initialState?: State;
  /** The last run's failure as the server recorded it: shown until the next run. */
  initialError?: AgentError | null;
  /** Interrupts still open on the server (first paint); the next run resumes them. */
  initialInterrupts?: Interrupt[];
  /** The run those interrupts paused: the resume names it as its parentRunId. */
  interruptedRunId?: string | null;
  /** A run still going on the server (first paint): attach() re-joins it. */
  activeRunId?: string | null;
  /** The thread's message queue (first paint). */
  initialQueue?: QueueItem[];
  /**
   * The session-stream cursor the first paint was rendered at: attach() listens from there,
   * so every tab shows what happens on the thread from then on. Defaults to the thread's start.
   */
  cursor?: string;
  tools?: FrontendTool[];
  /** Follow-up runs answering frontend tools before the store gives up (a loop guard). */
  maxToolRounds?: number;
  /** Tests pass a fetch of their own through it; the app uses ThreadHttpAgent as it is. */
  createAgent?: (config: HttpAgentConfig) => ThreadHttpAgent;
  /** The session stream's transport; the browser's EventSource by default. */
  createEventSource?: (url: string) => EventSourceLike;
}

type Listener = () => void;

export class AgentStore {
  readonly agentName: string;
  readonly threadId: string;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly agent: ThreadHttpAgent;
  private readonly listeners = new Set<Listener>();
  private readonly maxToolRounds: number;
  private tools: FrontendTool[];
  /** State the user changed since the last run started; it rides along with the next run. */
  private unsentState: Record<string, unknown> | null = null;
  /** Aborts running frontend-tool handlers on stop(). */
  private toolAbort: AbortController | null = null;
  private stopRequested = false;
  private snapshot: AgentSnapshot;
  /** Staged decisions by interrupt id; cleared whenever a run reports a new set. */
  private resolutions = new Map<string, InterruptResolution>();
  private currentRunId: string | null = null;
  /** A run to re-join on attach(). */
  private activeRunId: string | null;
  private readonly cursor: string;
  private readonly createEventSource?: (url: string) => EventSourceLike;
  /** The session stream, once the thread exists and the store is attached. */
  private feed: SessionFeed | null = null;
  private attached = false;
  /** Runs this tab started: the session stream carries them too, and they are skipped there. */
  private readonly ownRuns = new Set<string>();
  /** Runs from the session stream waiting for the one on screen to end, in order. */
  private readonly otherRuns: { runId: string; events: Observable<BaseEvent>; cursors: (string | undefined)[] }[] = [];
  private applyingOtherRun = false;
  /** resolveInterrupts() is staging a batch: single resolutions do not submit meanwhile. */
  private batching = false;
  /** The run that ended with the open interrupts; a resume carries it as parentRunId. */
  private interruptedRunId: string | null;

  constructor(options: AgentStoreOptions) {
    this.agentName = options.agent;
    this.threadId = options.threadId;
    this.tools = options.tools ?? [];
    this.maxToolRounds = options.maxToolRounds ?? 8;
    this.url = options.url ?? `/api/agents/${encodeURIComponent(options.agent)}`;
    this.headers = options.headers ?? {};
    const config: HttpAgentConfig = {
      url: this.url,
      headers: options.headers,
      agentId: options.agent,
      threadId: options.threadId,
      initialMessages: options.initialMessages ?? [],
      initialState: options.initialState ?? {},
    };
    this.agent = options.createAgent ? options.createAgent(config) : new ThreadHttpAgent(config);
    this.activeRunId = options.activeRunId ?? null;
    this.cursor = options.cursor ?? '-1';
    this.createEventSource = options.createEventSource;
    // HttpAgent only learns of interrupts from a RUN_FINISHED it saw itself; seeding them
    // makes the next run after a refresh a resume (it refuses any other run meanwhile).
    this.agent.pendingInterrupts = [...(options.initialInterrupts ?? [])];
    this.interruptedRunId = options.interruptedRunId ?? null;
    this.agent.use(this.withParentRunId);
    this.snapshot = {
      messages: this.agent.messages,
      state: this.agent.state,
      status: options.initialError ? 'error' : 'idle',
      error: options.initialError ?? null,
      streamingMessageId: null,
      activeSteps: [],
      interrupts: [],
      threadExists: (options.initialMessages?.length ?? 0) > 0,
      canRetryInterrupts: false,
      canRetry: false,
      queue: options.initialQueue ?? [],
    };
    this.snapshot.interrupts = this.pendingInterrupts();
    this.publish({}); // derives what follows from the first paint (canRetry after a failed turn)
    this.agent.subscribe(this.liveUpdates());
  }

  // ─── Reading ─────────────────────────────────────────────────────────────────────────

  getSnapshot = (): AgentSnapshot => this.snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  // ─── Commands ────────────────────────────────────────────────────────────────────────

  /**
   * Appends a user message and runs the agent. While a turn runs or waits on a decision, the
   * message is queued instead: it goes out when the thread falls idle (docs/turn-control.md,
   * "Queue"). False when it was neither sent nor queued (the text should stay with the user).
   */
  async sendMessage(text: string): Promise<boolean> {
    const content = text.trim();
    if (!content) return false;
    if (this.snapshot.status === 'running' || this.agent.pendingInterrupts.length > 0 || this.snapshot.queue.length > 0) {
      return this.changeQueue({ op: 'add', id: randomUUID(), text: content });
    }
    this.agent.addMessage({ id: randomUUID(), role: 'user', content });
    await this.run();
    return true;
  }

  /** Changes a queued message's text. */
  editQueued(id: string, text: string): Promise<boolean> {
    return this.changeQueue({ op: 'edit', id, text });
  }

  /** Moves a queued message to `index` (0 goes next). */
  moveQueued(id: string, index: number): Promise<boolean> {
    return this.changeQueue({ op: 'move', id, index });
  }

  removeQueued(id: string): Promise<boolean> {
    return this.changeQueue({ op: 'remove', id });
  }

  /** Sends a queued message now: the turn in progress ends at its next step, a pending decision is cancelled. */
  sendQueuedNow(id: string): Promise<boolean> {
    return this.changeQueue({ op: 'sendNow', id });
  }

  /** Answers open interrupts with raw resume entries (the staged API below builds on this). */
  async resume(entries: ResumeEntry[]): Promise<void> {
    if (this.snapshot.status === 'running') return;
    await this.run(entries);
  }

  /** Stages a decision for one interrupt; the batch submits once every one is validly staged. */
  async resolveInterrupt(interruptId: string, approved: boolean, options?: ResolveOptions): Promise<void> {
    const interrupt = this.openInterrupt(interruptId);
    if (!interrupt || this.snapshot.status === 'running') return;
    this.stage([stageDecision(interrupt, approved, options)]);
    await this.submitWhenDecided();
  }

  async cancelInterrupt(interruptId: string): Promise<void> {
    const interrupt = this.openInterrupt(interruptId);
    if (!interrupt || this.snapshot.status === 'running') return;
    this.stage([stageCancel(interrupt)]);
    await this.submitWhenDecided();
  }

  clearResolution(interruptId: string): void {
    if (this.snapshot.status === 'running' || !this.resolutions.delete(interruptId)) return;
    this.publish({ interrupts: this.pendingInterrupts() });
  }

  /**
   * Adds guidance to the turn in progress (docs/turn-control.md, "Steer"): the run takes it in
   * at its next step and the stream shows it. False when it was not taken (no turn runs any
   * more, or the request failed): the caller keeps the text.
   */
  async steer(text: string): Promise<boolean> {
    const content = text.trim();
    if (!content || this.snapshot.status !== 'running' || !this.currentRunId) return false;
    try {
      const response = await this.agent.fetch(`${this.url}/steer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.headers },
        body: JSON.stringify({ threadId: this.threadId, runId: this.currentRunId, text: content, id: randomUUID() }),
      });
      return response.ok;
    } catch {
      return false;
    }
  }

  /**
   * POSTs `{threadId, ...body}` to one of the thread's endpoints (`{url}/queue`, `/state`,
   * `/decide`) and reads the JSON answer; `error` is the refusal as the chat shows it.
   */
  private async postToThread<T>(endpoint: string, body: Record<string, unknown>, refused: string): Promise<{ answer: T; error?: AgentError }> {
    const response = await this.agent.fetch(`${this.url}/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.headers },
      body: JSON.stringify({ threadId: this.threadId, ...body }),
    });
    const answer = (await response.json().catch(() => ({}))) as T & { error?: { code?: string; message?: string } };
    return response.ok ? { answer } : { answer, error: { message: answer.error?.message ?? `${refused} (HTTP ${response.status}).`, code: answer.error?.code, refused: true } };
  }

  private async changeQueue(body: { op: string; id: string; text?: string; index?: number }): Promise<boolean> {
    try {
      const { answer, error } = await this.postToThread<{ queue?: QueueItem[] }>('queue', body, 'The queue refused the change');
      if (answer.queue) this.setQueue(answer.queue);
      if (error) {
        this.publish({ error });
        return false;
      }
      // A queued message on a thread this tab had not listened to yet (its first turn still streaming).
      if (this.attached) this.listen();
      return true;
    } catch (error) {
      this.publish({ error: toAgentError(error) });
      return false;
    }
  }

  private setQueue(queue: QueueItem[]): void {
    if (JSON.stringify(queue) !== JSON.stringify(this.snapshot.queue)) this.publish({ queue });
  }

  /**
   * Runs the failed turn again (docs/turn-control.md): what it completed stays, its failed
   * step's partial reply goes, and the model is called again. One click is one retry: the
   * retryId makes a resent request harmless.
   */
  async retry(): Promise<void> {
    if (!this.snapshot.canRetry) return;
    await this.run(undefined, { retryId: randomUUID() });
  }

  /**
   * Decides every open interrupt at once, then submits the batch if every one is validly
   * staged: `true`/`false` for all (approvals without edits or data), or a callback per
   * interrupt that resolves it itself (`interrupt.resolveInterrupt(...)`, `interrupt.cancel()`)
   * and returns nothing, or returns the decision.
   */
  async resolveInterrupts(decide: boolean | ((interrupt: PendingInterrupt) => InterruptDecision)): Promise<void> {
    if (this.snapshot.status === 'running') return;
    // The callback's own resolveInterrupt() calls only stage: the batch goes once, below.
    this.batching = true;
    try {
      for (const interrupt of this.snapshot.interrupts) {
        const decision = typeof decide === 'function' ? decide(interrupt) : decide;
        if (decision === undefined) continue;
        if (decision === 'cancel') this.stage([stageCancel(interrupt)]);
        else if (typeof decision === 'boolean') this.stage([stageDecision(interrupt, decision)]);
        else {
          const { approved, ...options } = decision;
          this.stage([stageDecision(interrupt, approved, options)]);
        }
      }
    } finally {
      this.batching = false;
    }
    await this.submitWhenDecided();
  }

  async cancelInterrupts(): Promise<void> {
    if (this.snapshot.status === 'running') return;
    this.stage(this.agent.pendingInterrupts.map(stageCancel));
    await this.submitWhenDecided();
  }

  /**
   * Sends the staged batch again after a failure that sending it again may fix (see
   * `canRetryInterrupts`). Does nothing otherwise: an expired interrupt or a changed tool is
   * not fixed by resending; cancel or restage instead.
   */
  async retryInterrupts(): Promise<void> {
    if (this.snapshot.status === 'running' || !this.snapshot.canRetryInterrupts) return;
    await this.submitWhenDecided();
  }

  /**
   * Merges into the shared state now (the UI shows it at once) and saves it on the server once
   * the edits pause (POST {url}/state), without a message; while a turn runs it goes with the
   * next run instead. Only keys the agent declares editable are kept by the server.
   */
  setState(partial: Record<string, unknown>): void {
    this.unsentState = { ...this.unsentState, ...partial };
    this.publish({ state: this.visibleState() });
    this.scheduleStateSave();
  }

  private stateSaveTimer: ReturnType<typeof setTimeout> | null = null;

  private scheduleStateSave(): void {
    if (this.stateSaveTimer) clearTimeout(this.stateSaveTimer);
    this.stateSaveTimer = setTimeout(() => void this.saveState(), STATE_SAVE_DELAY_MS);
  }

  /** Saves the unsent state now; a refusal keeps it for the next try or the next run. */
  private async saveState(): Promise<void> {
    this.stateSaveTimer = null;
    const sending = this.unsentState;
    if (!sending || this.snapshot.status === 'running') return;
    try {
      const { answer, error } = await this.postToThread<{ state: State }>('state', { state: sending }, 'The state was not saved');
      if (error) {
        // A run started meanwhile: the change goes with it, or is saved when it ends.
        if (error.code !== 'session_busy') this.publish({ error });
        return;
      }
      const { state } = answer;
      // Edits made while this one was on its way stay unsent.
      if (this.unsentState === sending) this.unsentState = null;
      this.agent.setState(state);
      this.publish({ state: this.visibleState(), threadExists: true });
      if (this.attached) this.listen();
    } catch {
      // Offline: it goes with the next run.
    }
  }

  /**
   * Stops the run in progress: a persisted stop (docs/hitl.md, "Stopping a run"), not a
   * dropped connection — the run outlives its request. It names the last event this tab
   * showed, so the server keeps the reply exactly as far as the user read it. The run's stream
   * then ends cancelled, with the thread as the server kept it. If the stop cannot be sent,
   * the connection is dropped instead.
   */
  async stop(): Promise<void> {
    if (this.snapshot.status !== 'running') return;
    this.stopRequested = true;
    this.toolAbort?.abort();
    try {
      // The frontier is the last event on screen: the server keeps the text up to it.
      const response = await this.agent.fetch(`${this.url}/stop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.headers },
        body: JSON.stringify({ threadId: this.threadId, runId: this.currentRunId, frontier: this.agent.frontier }),
      });
      if (!response.ok) throw new Error(`stop: HTTP ${response.status}`);
    } catch {
      this.agent.abortRun();
    }
  }

  /**
   * Starts listening to the thread's session stream: the run the server was still working on
   * when the page was rendered (a refresh mid-turn) goes on on screen, and so does whatever
   * happens on the thread from then on — a turn from another tab or another wire, a decision
   * made with the CLI or over HTTP and its continuation (docs/architecture.md, "Streams and
   * cursors"). A new thread is listened to from its first run on.
   */
  attach(): void {
    this.attached = true;
    if (this.snapshot.threadExists || this.activeRunId) this.listen();
  }

  /**
   * Stops listening (the page goes away). Runs go on on the server. A run of another source
   * that was on screen stays open: attach() again continues it where the stream left off.
   */
  detach(): void {
    this.attached = false;
    this.feed?.close();
    if (this.snapshot.status !== 'running' || this.applyingOtherRun) return;
    this.stopRequested = true;
    this.toolAbort?.abort();
    this.agent.abortRun();
  }

  /** Frontend tools may change between renders; the next run declares the current ones. */
  setTools(tools: FrontendTool[]): void {
    this.tools = tools;
  }

  // ─── The run loop ────────────────────────────────────────────────────────────────────

  private async run(resume?: ResumeEntry[], retry?: { retryId: string }): Promise<void> {
    this.stopRequested = false;
    this.publish({ status: 'running', error: null });
    try {
      let pending = await this.runOnce(resume, retry);
      for (let round = 1; pending.length > 0 && !this.stopRequested; round++) {
        if (round > this.maxToolRounds) {
          throw Object.assign(new Error(`Stopped after ${this.maxToolRounds} rounds of frontend tools.`), { code: 'too_many_tool_rounds' });
        }
        this.agent.addMessages(await this.answerFrontendTools(pending));
        if (this.stopRequested) break;
        pending = await this.runOnce();
      }
      this.settle();
    } catch (error) {
      this.settle({ error });
    }
  }

  /** The store after a run (its own or another's) ended, by itself or with `error`. */
  private settle(failure?: { error: unknown }): void {
    const done = { streamingMessageId: null, activeSteps: [] };
    this.applyingOtherRun = false;
    if (!failure) this.publish({ status: this.snapshot.error ? 'error' : 'idle', ...done });
    // HttpAgent swallows some abort errors and rethrows others (it depends on where the
    // stream was cut); a stop the user asked for is never a failure.
    else if (this.stopRequested) this.publish({ status: 'idle', ...done });
    else this.publish({ status: 'error', error: toAgentError(failure.error), ...done });
    this.applyNextOtherRun();
    // An edit made while the turn ran is saved now that it is over.
    if (this.unsentState && this.snapshot.status !== 'running') this.scheduleStateSave();
  }

  /** One HTTP run. Resolves with the frontend tool calls it left to answer. */
  private async runOnce(resume?: ResumeEntry[], retry?: { retryId: string }): Promise<string[]> {
    this.flushUnsentState();
    let pending: string[] = [];
    // Named here, not by HttpAgent, so the session stream knows this run as this tab's own.
    const runId = randomUUID();
    this.ownRuns.add(runId);
    await this.agent.runAgent(
      {
        runId,
        tools: this.tools.map(({ handler: _handler, ...definition }) => definition),
        ...(resume ? { resume } : {}),
        // AG-UI has no retry field; the server reads it from forwardedProps (docs/turn-control.md).
        ...(retry ? { forwardedProps: { retry } } : {}),
      },
      this.runSubscriber({ resume, onPending: (ids) => (pending = ids) }),
    );
    return this.snapshot.error ? [] : pending;
  }

  /** What a run (or a re-joined one) does with its outcome and its errors. */
  private runSubscriber(options: { resume?: ResumeEntry[]; onPending: (toolCallIds: string[]) => void }): AgentSubscriber {
    const { resume } = options;
    return {
      onRunFinishedEvent: (params) => {
        // HttpAgent hands over the outcome here, not in runAgent's result: the producer's
        // pendingToolCallIds (or the calls this run left unanswered), or the interrupts.
        // (It updates its own pendingInterrupts after every subscriber has seen the event.)
        if (params.outcome === 'success') options.onPending(params.pendingToolCallIds);
        if (params.outcome === 'interrupt') this.interruptedRunId = this.currentRunId;
        this.resolutions.clear();
        this.publish({ interrupts: this.pendingInterrupts(params.outcome === 'interrupt' ? params.interrupts : []) });
      },
      onRunErrorEvent: ({ event }) => {
        // HttpAgent turns our own abort into a synthetic RUN_ERROR {code: 'abort'}: a stop
        // the user asked for is not a failure.
        if (this.stopRequested && event.code === 'abort') return;
        if (resume && event.code && THREAD_MOVED_ON.has(event.code)) this.forgetInterrupts();
        this.publish({ error: { message: event.message, ...(event.code ? { code: event.code } : {}) } });
      },
    };
  }

  // ─── The session stream ──────────────────────────────────────────────────────────────

  private listen(): void {
    this.feed ??= new SessionFeed({
      url: this.url,
      threadId: this.threadId,
      cursor: this.cursor,
      activeRunId: this.activeRunId,
      isOwnRun: (runId) => this.ownRuns.has(runId),
      onRun: (runId, events, cursors) => {
        this.otherRuns.push({ runId, events, cursors });
        this.applyNextOtherRun();
      },
      onInterruptDecided: (interruptId) => this.decidedElsewhere(interruptId),
      onQueue: (queue) => this.setQueue(queue),
      createEventSource: this.createEventSource,
    });
    this.feed.open();
  }

  /** Shows the next run from the session stream, once nothing else is on screen. */
  private applyNextOtherRun(): void {
    if (this.applyingOtherRun || this.snapshot.status === 'running') return;
    const next = this.otherRuns.shift();
    if (next) void this.applyOtherRun(next);
  }

  private async applyOtherRun({ runId, events, cursors }: (typeof this.otherRuns)[number]): Promise<void> {
    this.applyingOtherRun = true;
    this.stopRequested = false;
    this.currentRunId = runId;
    // A run started on the thread, so whatever was open here was decided (or expired) on the
    // way: a run can only start on a thread with open interrupts by answering all of them.
    this.agent.pendingInterrupts = [];
    this.resolutions.clear();
    this.publish({ status: 'running', error: null, interrupts: [] });
    try {
      // Another tab's frontend tools are that tab's to answer: pending calls are left alone.
      await this.agent.applyRun(runId, events, cursors, this.runSubscriber({ onPending: () => undefined }));
      this.settle();
    } catch (error) {
      this.settle({ error });
    }
  }

  /** The server decided an interrupt outside any run (the CLI, /api/hitl, another tab's decision). */
  private decidedElsewhere(interruptId: string): void {
    const open = this.agent.pendingInterrupts.filter((interrupt) => interrupt.id !== interruptId);
    if (open.length === this.agent.pendingInterrupts.length) return;
    this.agent.pendingInterrupts = open;
    this.resolutions.delete(interruptId);
    this.publish({ interrupts: this.pendingInterrupts() });
  }

  private async answerFrontendTools(toolCallIds: string[]): Promise<Message[]> {
    this.toolAbort = new AbortController();
    const { signal } = this.toolAbort;
    try {
      const answers: Message[] = [];
      for (const toolCallId of toolCallIds) {
        const call = findToolCall(this.agent.messages, toolCallId);
        const tool = call && this.tools.find((candidate) => candidate.name === call.function.name);
        if (!call || !tool) {
          answers.push(toolResultMessage(toolCallId, { error: `No frontend tool in this page answers ${call?.function.name ?? toolCallId}.` }));
          continue;
        }
        try {
          const args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
          answers.push(toolResultMessage(toolCallId, { result: await tool.handler(args, { toolCallId, signal }) }));
        } catch (error) {
          answers.push(toolResultMessage(toolCallId, { error: toAgentError(error).message }));
        }
      }
      return answers;
    } finally {
      this.toolAbort = null;
    }
  }

  // ─── Interrupts ──────────────────────────────────────────────────────────────────────

  private openInterrupt(interruptId: string): Interrupt | undefined {
    return this.agent.pendingInterrupts.find((interrupt) => interrupt.id === interruptId);
  }

  private stage(resolutions: InterruptResolution[]): void {
    for (const resolution of resolutions) this.resolutions.set(resolution.entry.interruptId, resolution);
    this.publish({ interrupts: this.pendingInterrupts() });
  }

  /** One resume run for the whole batch, once every open interrupt has a valid decision. */
  private async submitWhenDecided(): Promise<void> {
    if (this.batching || !this.batchReady()) return;
    await this.run(this.agent.pendingInterrupts.map((interrupt) => this.resolutions.get(interrupt.id)!.entry));
  }

  /** Every open interrupt has a decision staged, and none of them has problems. */
  private batchReady(): boolean {
    const open = this.agent.pendingInterrupts;
    return open.length > 0 && open.every((interrupt) => this.resolutions.get(interrupt.id)?.problems.length === 0);
  }

  /**
   * The server decided these without us (expiry, another tab, the CLI): HttpAgent would
   * refuse every later run over them, so they are dropped here; a reload shows the outcome.
   */
  private forgetInterrupts(): void {
    this.agent.pendingInterrupts = [];
    this.resolutions.clear();
    this.publish({ interrupts: [] });
  }

  private pendingInterrupts(open: readonly Interrupt[] = this.agent.pendingInterrupts): PendingInterrupt[] {
    return open.map((interrupt) => {
      const details = interruptDetails(interrupt);
      return {
        ...interrupt,
        ...details,
        // Named only when a subagent raised it: the chat's own agent goes without saying.
        agent: details.agent === this.agentName ? undefined : details.agent,
        resolution: this.resolutions.get(interrupt.id) ?? null,
        resolveInterrupt: (approved, options) => this.resolveInterrupt(interrupt.id, approved, options),
        cancel: () => this.cancelInterrupt(interrupt.id),
        clearResolution: () => this.clearResolution(interrupt.id),
        decline: (reason) => this.declineInterrupt(interrupt.id, reason),
      };
    });
  }

  /**
   * Declines a question: AG-UI's resume cannot say it (its payload is the answer itself), so it
   * goes as a decision of its own (POST {url}/decide). The continuation, if the decision
   * completed its batch, reaches this tab through the session stream like any other run.
   */
  private async declineInterrupt(interruptId: string, reason?: string): Promise<void> {
    if (this.snapshot.status === 'running' || !this.openInterrupt(interruptId)) return;
    try {
      const { error } = await this.postToThread('decide', { interruptId, action: 'reject', ...(reason?.trim() ? { reason: reason.trim() } : {}) }, 'The decision was refused');
      if (error) {
        this.publish({ error });
        return;
      }
      this.decidedElsewhere(interruptId);
      if (this.attached) this.listen();
    } catch (error) {
      this.publish({ error: toAgentError(error) });
    }
  }

  /** A resume names the interrupted run as its parent; HttpAgent has no parameter for it (docs/hitl.md). */
  private withParentRunId: MiddlewareFunction = (input, next) =>
    next.run(input.resume?.length && this.interruptedRunId ? { ...input, parentRunId: this.interruptedRunId } : input);

  private flushUnsentState(): void {
    if (this.stateSaveTimer) clearTimeout(this.stateSaveTimer);
    this.stateSaveTimer = null;
    if (!this.unsentState) return;
    // HttpAgent sends agent.state as RunAgentInput.state; the server's snapshot then confirms it.
    this.agent.setState({ ...this.agent.state, ...this.unsentState });
    this.unsentState = null;
  }

  // ─── Snapshot plumbing ───────────────────────────────────────────────────────────────

  private visibleState(): State {
    return this.unsentState ? { ...this.agent.state, ...this.unsentState } : this.agent.state;
  }

  /** The agent's callbacks that keep the snapshot current, token by token. */
  private liveUpdates(): AgentSubscriber {
    return {
      // HttpAgent hands over a fresh copy of the whole list on every event (including each
      // TEXT_MESSAGE_CONTENT), so streamed text renders live from here. Reading the text from
      // onTextMessageContentEvent instead would need textMessageBuffer + delta: the buffer
      // there is the text *before* the delta.
      onMessagesChanged: ({ messages }) => this.publish({ messages: messages as Message[] }),
      onStateChanged: () => this.publish({ state: this.visibleState() }),
      // The server's log is the order of the thread. HttpAgent would keep its local order and
      // append what it lacked, so a turn made in another tab or over another wire would land
      // after this tab's newest message; taking the snapshot as it is keeps every tab alike.
      onMessagesSnapshotEvent: ({ event }) => ({ messages: event.messages }),
      onRunStartedEvent: ({ event }) => {
        this.currentRunId = event.runId;
        if (this.snapshot.threadExists) return;
        this.publish({ threadExists: true });
        // A thread this tab just created: from now on others may add to it too.
        if (this.attached) this.listen();
      },
      onTextMessageStartEvent: ({ event }) => this.publish({ streamingMessageId: event.messageId }),
      onTextMessageEndEvent: () => this.publish({ streamingMessageId: null }),
      onStepStartedEvent: ({ event }) => this.publish({ activeSteps: [...this.snapshot.activeSteps, event.stepName] }),
      onStepFinishedEvent: ({ event }) => {
        const index = this.snapshot.activeSteps.lastIndexOf(event.stepName);
        if (index >= 0) this.publish({ activeSteps: this.snapshot.activeSteps.filter((_, i) => i !== index) });
      },
    };
  }

  private publish(change: Partial<AgentSnapshot>): void {
    const next = { ...this.snapshot, ...change };
    next.canRetryInterrupts = next.status === 'error' && next.error !== null && isRetryable(next.error) && this.batchReady();
    next.canRetry = next.status === 'error' && next.error?.code !== undefined && RUN_FAILURES.has(next.error.code) && this.agent.pendingInterrupts.length === 0;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/**
 * A failure that the same request may get past: the connection (no code), a thread busy with
 * another run, a server fault. Every other code refuses the decisions themselves (an expiry, a
 * changed tool, a failed schema, a decision made elsewhere): resending them fails again.
 */
function isRetryable(error: AgentError): boolean {
  return error.code === undefined || RETRYABLE.has(error.code);
}
/** How long the state edits must pause before they are saved (the draft as the user types). */
const STATE_SAVE_DELAY_MS = 600;

const RETRYABLE = new Set(['session_busy', 'internal_error']);

/** The codes of a run that failed on the server (not of a request it refused): a retry runs it again. */
const RUN_FAILURES = new Set(['model_error', 'internal_error', 'max_steps_exceeded']);

/** Resume refusals meaning the server's thread no longer waits on what this tab shows. */
const THREAD_MOVED_ON = new Set(['interrupt_expired', 'interrupt_already_decided', 'interrupt_unknown']);

/** HttpAgent rejects with `HTTP <status>: <body>` and a parsed `payload` for refused requests. */
function toAgentError(error: unknown): AgentError {
  const payload = (error as { payload?: { error?: { message?: unknown; code?: unknown } } } | null)?.payload?.error;
  if (payload && typeof payload.message === 'string') {
    return { message: payload.message, ...(typeof payload.code === 'string' ? { code: payload.code } : {}) };
  }
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
