// The framework-free core of useAgent: one AG-UI thread in the browser, over @ag-ui/client's
// HttpAgent, built as TanStack Query's core is — an observable snapshot (subscribable.ts) and
// parts that each own one job:
// - run-lifecycle.ts: a run on screen (this tab's own, or one of another source replayed),
//   the agent's callbacks turned into the snapshot;
// - interrupt-batch.ts: staging decisions and submitting them as one resume;
// - thread-commands.ts: queue, steer, stop, state and decide, through one POST helper;
// - state-draft.ts: the user's unsent edits to the shared state;
// - thread-follower.ts: the session stream, so runs this tab did not start show live too;
// - frontend-tool-loop.ts: answering the tools the browser runs.
// This class wires them together and is their one face; React (useAgent.ts) only subscribes to it.
import { randomUUID, type HttpAgentConfig, type Interrupt, type Message, type ResumeEntry, type State } from '@ag-ui/client';
import { userMessageContent, type Attachment, type ContextCompactedValue, type DecisionRecord, type QueueItem } from '@/server/contract';
import { isRetryable, isRunFailure, type AgentError } from './agent-error';
import { FrontendToolLoop, type FrontendTool } from './frontend-tool-loop';
import { InterruptBatch } from './interrupt-batch';
import type { ResolveOptions } from './interrupt-resolution';
import { RunLifecycle } from './run-lifecycle';
import type { EventSourceLike } from './session-feed';
import type { AgentSnapshot, InterruptDecision, PendingInterrupt, SnapshotHost } from './snapshot';
import { StateDraft } from './state-draft';
import { Subscribable } from './subscribable';
import { ThreadCommands } from './thread-commands';
import { ThreadFollower } from './thread-follower';
import { ThreadHttpAgent } from './thread-http-agent';
import { decisionsByToolCall, ToolOutcomes } from './tool-outcomes';

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
  /** The decisions made on the thread (first paint): shown under their calls. */
  initialDecisions?: DecisionRecord[];
  /** The tool calls a stop cut (first paint). */
  initialStoppedToolCallIds?: string[];
  /** Where older turns were compacted (first paint; docs/models.md, "Long threads"). */
  initialCompactions?: ContextCompactedValue[];
  /** The thread's model (first paint): the next turn asks for it until setModel() picks another. */
  initialModel?: string | null;
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

/** An approval or an input request, by its object (from `pendingApprovals`, `interrupts`, …) or its id. */
export type PendingRef = string | { readonly id: string };

export class AgentStore extends Subscribable<AgentSnapshot> {
  readonly agentName: string;
  readonly threadId: string;
  private readonly agent: ThreadHttpAgent;
  private readonly commands: ThreadCommands;
  private readonly batch: InterruptBatch;
  private readonly draft: StateDraft;
  private readonly follower: ThreadFollower;
  private readonly frontendTools: FrontendToolLoop;
  private readonly runs: RunLifecycle;
  private readonly outcomes: ToolOutcomes;
  /**
   * The model picked in this tab. Only a pick is sent: a tab that never picked leaves the model to
   * the thread, so it does not undo a pick made in another tab since it loaded.
   */
  private pickedModel: string | undefined;

  constructor(options: AgentStoreOptions) {
    const { agent: agentName, threadId } = options;
    const url = options.url ?? `/api/agents/${encodeURIComponent(agentName)}`;
    const config: HttpAgentConfig = {
      url,
      headers: options.headers,
      agentId: agentName,
      threadId,
      initialMessages: options.initialMessages ?? [],
      initialState: options.initialState ?? {},
    };
    const agent = options.createAgent ? options.createAgent(config) : new ThreadHttpAgent(config);
    // HttpAgent only learns of interrupts from a RUN_FINISHED it saw itself; seeding them
    // makes the next run after a refresh a resume (it refuses any other run meanwhile).
    agent.pendingInterrupts = [...(options.initialInterrupts ?? [])];
    super({
      messages: agent.messages,
      state: agent.state,
      status: options.initialError ? 'error' : 'idle',
      error: options.initialError ?? null,
      streamingMessageId: null,
      streamingReasoningId: null,
      activeSteps: [],
      interrupts: [],
      threadExists: (options.initialMessages?.length ?? 0) > 0,
      canRetryInterrupts: false,
      canRetry: false,
      queue: options.initialQueue ?? [],
      decisions: decisionsByToolCall(options.initialDecisions ?? []),
      stoppedToolCallIds: options.initialStoppedToolCallIds ?? [],
      compactions: options.initialCompactions ?? [],
      model: options.initialModel ?? null,
    });
    this.agentName = agentName;
    this.threadId = threadId;
    this.agent = agent;
    const host: SnapshotHost = { getSnapshot: this.getSnapshot, publish: (change) => this.publish(change) };
    this.outcomes = new ToolOutcomes(host);
    this.commands = new ThreadCommands({ ...host, agent, url, threadId, headers: options.headers ?? {}, threadKnown: () => this.follower.threadKnown() });
    this.batch = new InterruptBatch(
      {
        ...host,
        agent,
        agentName,
        submit: (entries) => this.runs.run(entries),
        rejectOutOfBand: (id, reason) => this.commands.reject(id, reason),
        voteOutOfBand: (id, approved, options) => this.commands.vote(id, approved, options),
      },
      options.interruptedRunId ?? null,
    );
    this.draft = new StateDraft({ ...host, agent, commands: this.commands });
    this.follower = new ThreadFollower(
      {
        url,
        threadId,
        isRunning: () => this.getSnapshot().status === 'running',
        replay: (runId, events, cursors) => this.runs.replay(runId, events, cursors),
        decidedElsewhere: (interruptId) => this.batch.decidedElsewhere(interruptId),
        votesCast: (interruptId, votes) => this.batch.votesCast(interruptId, votes),
        toolOutcome: (name, value) => this.outcomes.take(name, value),
        setQueue: (queue) => this.commands.setQueue(queue),
      },
      { cursor: options.cursor ?? '-1', activeRunId: options.activeRunId ?? null, createEventSource: options.createEventSource },
    );
    this.frontendTools = new FrontendToolLoop(options.tools ?? [], options.maxToolRounds ?? 8);
    agent.use(this.batch.withParentRunId);
    this.publish({ interrupts: this.batch.view() }); // derives what follows from the first paint (canRetry after a failed turn)
    this.runs = new RunLifecycle({
      ...host,
      agent,
      batch: this.batch,
      draft: this.draft,
      follower: this.follower,
      frontendTools: this.frontendTools,
      outcomes: this.outcomes,
      pickedModel: () => this.pickedModel,
    });
  }

  // ─── Messages and the queue ─────────────────────────────────────────────────────────

  /**
   * Appends a user message and runs the agent. While a turn runs or waits on a decision, the
   * message is queued instead: it goes out when the thread falls idle (docs/turn-control.md,
   * "Queue"). False when it was neither sent nor queued (the text should stay with the user).
   */
  async sendMessage(text: string, attachments: Attachment[] = []): Promise<boolean> {
    const content = text.trim();
    if (!content && attachments.length === 0) return false;
    const { status, queue } = this.getSnapshot();
    if (status === 'running' || this.agent.pendingInterrupts.length > 0 || queue.length > 0) {
      // The queue keeps text; files go with a turn of their own (the composer waits for one).
      if (attachments.length > 0) return false;
      return this.commands.changeQueue({ op: 'add', id: randomUUID(), text: content });
    }
    this.agent.addMessage({ id: randomUUID(), role: 'user', content: userMessageContent(content, attachments) });
    await this.runs.run();
    return true;
  }

  editQueued = (id: string, text: string) => this.commands.changeQueue({ op: 'edit', id, text });
  /** Moves a queued message to `index` (0 goes next). */
  moveQueued = (id: string, index: number) => this.commands.changeQueue({ op: 'move', id, index });
  removeQueued = (id: string) => this.commands.changeQueue({ op: 'remove', id });
  /** Sends a queued message now: the turn in progress ends at its next step, a pending decision is cancelled. */
  sendQueuedNow = (id: string) => this.commands.changeQueue({ op: 'sendNow', id });

  /**
   * Picks the model the thread's next turn runs on, one of the agent's `models`. A turn already
   * started (or waiting on a decision) finishes on its own model (docs/models.md, "Choosing a model").
   */
  setModel = (model: string) => {
    this.pickedModel = model;
    this.publish({ model });
  };

  /** Merges into the shared state now and saves it once the edits pause (state-draft.ts). */
  setState = (partial: Record<string, unknown>) => this.draft.edit(partial);

  // ─── Decisions (interrupt-batch.ts) ─────────────────────────────────────────────────

  /** Answers open interrupts with raw resume entries (the staged API builds on this). */
  async resume(entries: ResumeEntry[]): Promise<void> {
    if (this.getSnapshot().status === 'running') return;
    await this.runs.run(entries);
  }

  resolveInterrupt = (interruptId: string, approved: boolean, options?: ResolveOptions) => this.batch.resolve(interruptId, approved, options);
  cancelInterrupt = (interruptId: string) => this.batch.cancel(interruptId);
  clearResolution = (interruptId: string) => this.batch.clear(interruptId);
  resolveInterrupts = (decide: boolean | ((interrupt: PendingInterrupt) => InterruptDecision)) => this.batch.resolveAll(decide);
  cancelInterrupts = () => this.batch.cancelAll();
  retryInterrupts = () => this.batch.retry();

  // The experimental-a2 names for the same decisions, each sent at once (docs/hitl.md, "The a2 names").
  approve = (approval: PendingRef, options?: Pick<ResolveOptions, 'editedArgs' | 'payload'>) => this.batch.decideNow(idOf(approval), true, options);
  deny = (approval: PendingRef, options?: Pick<ResolveOptions, 'reason' | 'payload'>) => this.batch.decideNow(idOf(approval), false, options);
  respond = (input: PendingRef, value: unknown) => this.batch.decideNow(idOf(input), true, { payload: value });

  // ─── The turn in progress ───────────────────────────────────────────────────────────

  /**
   * Adds guidance to the turn in progress (docs/turn-control.md, "Steer"): the run takes it in
   * at its next step and the stream shows it. False when it was not taken (no turn runs any
   * more, or the request failed): the caller keeps the text.
   */
  async steer(text: string): Promise<boolean> {
    const content = text.trim();
    const runId = this.runs.runId;
    if (!content || this.getSnapshot().status !== 'running' || !runId) return false;
    return this.commands.steer(runId, content);
  }

  /**
   * Stops the run in progress: a persisted stop (docs/hitl.md, "Stopping a run"), not a
   * dropped connection — the run outlives its request. It names the last event on screen, so
   * the server keeps the text up to it; the run's stream then ends cancelled. If the stop
   * cannot be sent, the connection is dropped instead.
   */
  async stop(): Promise<void> {
    if (this.getSnapshot().status !== 'running') return;
    this.runs.markStopped();
    if (!(await this.commands.stop(this.runs.runId, this.agent.frontier))) this.agent.abortRun();
  }

  /**
   * Runs the failed turn again (docs/turn-control.md): what it completed stays, its failed
   * step's partial reply goes, and the model is called again. One click is one retry: the
   * retryId makes a resent request harmless.
   */
  async retry(): Promise<void> {
    if (!this.getSnapshot().canRetry) return;
    await this.runs.run(undefined, { retryId: randomUUID() });
  }

  // ─── The page ───────────────────────────────────────────────────────────────────────

  /** Starts following the thread's session stream (thread-follower.ts). */
  attach(): void {
    this.follower.attach(this.getSnapshot().threadExists);
  }

  /**
   * Stops listening (the page goes away). Runs go on on the server. A run of another source
   * that was on screen stays open: attach() again continues it where the stream left off.
   */
  detach(): void {
    this.follower.detach();
    if (this.getSnapshot().status !== 'running' || this.follower.isReplaying) return;
    this.runs.markStopped();
    this.agent.abortRun();
  }

  setTools(tools: FrontendTool[]): void {
    this.frontendTools.setTools(tools);
  }

  protected derive(next: AgentSnapshot): AgentSnapshot {
    const failed = next.status === 'error' && next.error !== null;
    next.canRetryInterrupts = failed && isRetryable(next.error!) && this.batch.ready();
    next.canRetry = failed && isRunFailure(next.error) && this.agent.pendingInterrupts.length === 0;
    return next;
  }
}

function idOf(ref: PendingRef): string {
  return typeof ref === 'string' ? ref : ref.id;
}
