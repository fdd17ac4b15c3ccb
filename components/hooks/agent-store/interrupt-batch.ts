// The open interrupts of a thread as one batch (docs/hitl.md, "In the web app"): decisions are
// staged one by one, checked locally, and the batch goes as one resume run once every open
// interrupt has a valid decision. HttpAgent holds the open interrupts themselves
// (`pendingInterrupts`: it refuses any other run while they are open); this object holds
// what the person staged for them and the run they paused.
import type { Interrupt, MiddlewareFunction, ResumeEntry } from '@ag-ui/client';
import type { ThreadHttpAgent } from './thread-http-agent';
import type { VoteAnswer } from './thread-commands';
import { interruptDetails, stageCancel, stageDecision, type InterruptResolution, type ResolveOptions } from './interrupt-resolution';
import type { InterruptDecision, PendingInterrupt, SnapshotHost } from './snapshot';

export interface InterruptBatchHost extends SnapshotHost {
  readonly agent: Pick<ThreadHttpAgent, 'pendingInterrupts'>;
  /** The chat's own agent: an interrupt names its agent only when a subagent raised it. */
  readonly agentName: string;
  /** Sends the decided batch as one resume run. */
  submit(entries: ResumeEntry[]): Promise<void>;
  /** Rejects one interrupt out of band (POST {url}/decide); true when the server took it. */
  rejectOutOfBand(interruptId: string, reason?: string): Promise<boolean>;
  /** Votes on (or decides) one interrupt out of band (POST {url}/decide); null when refused. */
  voteOutOfBand(interruptId: string, approved: boolean, options: { reason?: string; payload?: unknown; editedArgs?: unknown }): Promise<VoteAnswer | null>;
}

/** What a decision or a vote sent beside a run (POST {url}/decide) carries of its options: the reason, trimmed, and the approval data. */
function sentBesideARun(options: ResolveOptions): { reason?: string; payload?: unknown } {
  return {
    ...(options.reason?.trim() ? { reason: options.reason.trim() } : {}),
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  };
}

export class InterruptBatch {
  /** Staged decisions by interrupt id; cleared whenever a run reports a new set. */
  private readonly resolutions = new Map<string, InterruptResolution>();
  /** resolveAll() is staging: single resolutions do not submit meanwhile. */
  private batching = false;

  constructor(
    private readonly host: InterruptBatchHost,
    /** The run that ended with the open interrupts; a resume carries it as parentRunId. */
    private interruptedRunId: string | null,
  ) {}

  private get open(): Interrupt[] {
    return this.host.agent.pendingInterrupts;
  }

  private get busy(): boolean {
    return this.host.getSnapshot().status === 'running';
  }

  /** Stages a decision for one interrupt; the batch submits once every one is validly staged. */
  async resolve(interruptId: string, approved: boolean, options?: ResolveOptions): Promise<void> {
    const interrupt = this.find(interruptId);
    if (!interrupt || this.busy) return;
    if (interruptDetails(interrupt).quorum) return this.vote(interrupt, approved, options);
    this.stage([stageDecision(interrupt, approved, options)]);
    await this.submitWhenDecided();
  }

  /**
   * Decides one interrupt at once, as experimental-a2's approve / deny / respond do (docs/hitl.md,
   * "The a2 names"): the last open one goes as the resume run, as resolve() sends it (its
   * continuation streams here); one of several is sent on its own (POST {url}/decide) and leaves
   * the batch, and the server resumes the turn once the batch is complete. A decision the
   * interrupt's schema refuses is staged with its problems and nothing is sent.
   */
  async decideNow(interruptId: string, approved: boolean, options: ResolveOptions = {}): Promise<void> {
    const interrupt = this.find(interruptId);
    if (!interrupt || this.busy) return;
    const others = this.open.filter((open) => open.id !== interruptId && this.resolutions.get(open.id)?.problems.length !== 0);
    if (others.length === 0 || interruptDetails(interrupt).quorum) return this.resolve(interruptId, approved, options);
    const staged = stageDecision(interrupt, approved, options);
    if (staged.problems.length > 0) return this.stage([staged]);
    const answer = await this.host.voteOutOfBand(interrupt.id, approved, {
      ...sentBesideARun(options),
      ...(options.editedArgs !== undefined ? { editedArgs: options.editedArgs } : {}),
    });
    if (answer) this.decidedElsewhere(interrupt.id);
  }

  /**
   * A call that needs several approvers is voted on beside any run (a resume would have to decide
   * it; docs/approvals.md, "Quorum and separation of duties"): a vote short of the quorum shows on
   * the card, and the vote that reaches it continues the thread through the session stream.
   */
  private async vote(interrupt: Interrupt, approved: boolean, options: ResolveOptions = {}): Promise<void> {
    const answer = await this.host.voteOutOfBand(interrupt.id, approved, sentBesideARun(options));
    if (!answer) return;
    if (!answer.vote) return this.decidedElsewhere(interrupt.id);
    const metadata = (interrupt.metadata ?? {}) as Record<string, unknown>;
    const votes = Array.isArray(metadata.votes) ? metadata.votes : [];
    // The session stream may have brought this very vote first: it says every vote so far.
    if (votes.some((vote: { mine?: unknown }) => vote?.mine === true)) return;
    this.votesCast(interrupt.id, [...votes, answer.vote]);
  }

  /** The votes so far on an open interrupt, as the server last said them (the session stream, or this tab's own vote). */
  votesCast(interruptId: string, votes: unknown[]): void {
    const interrupt = this.find(interruptId);
    if (!interrupt) return;
    const metadata = (interrupt.metadata ?? {}) as Record<string, unknown>;
    this.host.agent.pendingInterrupts = this.open.map((open) => (open.id === interruptId ? { ...open, metadata: { ...metadata, votes } } : open));
    this.host.publish({ interrupts: this.view() });
  }

  async cancel(interruptId: string): Promise<void> {
    const interrupt = this.find(interruptId);
    if (!interrupt || this.busy) return;
    this.stage([stageCancel(interrupt)]);
    await this.submitWhenDecided();
  }

  clear(interruptId: string): void {
    if (this.busy || !this.resolutions.delete(interruptId)) return;
    this.host.publish({ interrupts: this.view() });
  }

  /**
   * Decides every open interrupt at once, then submits the batch if every one is validly
   * staged: `true`/`false` for all (approvals without edits or data), or a callback per
   * interrupt that resolves it itself (`interrupt.resolveInterrupt(...)`, `interrupt.cancel()`)
   * and returns nothing, or returns the decision.
   */
  async resolveAll(decide: boolean | ((interrupt: PendingInterrupt) => InterruptDecision)): Promise<void> {
    if (this.busy) return;
    // The callback's own resolveInterrupt() calls only stage: the batch goes once, below.
    this.batching = true;
    try {
      for (const interrupt of this.host.getSnapshot().interrupts) {
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

  async cancelAll(): Promise<void> {
    if (this.busy) return;
    this.stage(this.open.map(stageCancel));
    await this.submitWhenDecided();
  }

  /**
   * Sends the staged batch again after a failure that sending it again may fix (see
   * `canRetryInterrupts`). Does nothing otherwise: an expired interrupt or a changed tool is
   * not fixed by resending; cancel or restage instead.
   */
  async retry(): Promise<void> {
    if (this.busy || !this.host.getSnapshot().canRetryInterrupts) return;
    await this.submitWhenDecided();
  }

  /**
   * Declines a question: AG-UI's resume cannot say it (its payload is the answer itself), so it
   * goes as a decision of its own (POST {url}/decide). The continuation, if the decision
   * completed its batch, reaches this tab through the session stream like any other run.
   */
  async decline(interruptId: string, reason?: string): Promise<void> {
    if (this.busy || !this.find(interruptId)) return;
    if (await this.host.rejectOutOfBand(interruptId, reason?.trim() || undefined)) this.decidedElsewhere(interruptId);
  }

  /** Every open interrupt has a decision staged, and none of them has problems. */
  ready(): boolean {
    const open = this.open;
    return open.length > 0 && open.every((interrupt) => this.resolutions.get(interrupt.id)?.problems.length === 0);
  }

  /** A run ended: paused by `interrupts` (its new batch) or with none; what was staged is done. */
  runEnded(runId: string | null, interrupts: readonly Interrupt[] | null): void {
    if (interrupts) this.interruptedRunId = runId;
    this.resolutions.clear();
    this.host.publish({ interrupts: this.view(interrupts ?? []) });
  }

  /**
   * Drops the open interrupts and their staged decisions, for the caller to publish: a run
   * started on the thread elsewhere, and a run can only start on a thread with open
   * interrupts by answering all of them.
   */
  discard(): void {
    this.host.agent.pendingInterrupts = [];
    this.resolutions.clear();
  }

  /**
   * The server decided these without us (expiry, another tab, the CLI): HttpAgent would
   * refuse every later run over them, so they are dropped here; a reload shows the outcome.
   */
  forget(): void {
    this.discard();
    this.host.publish({ interrupts: [] });
  }

  /** The server decided one interrupt outside any run (the CLI, /api/hitl, another tab's decision). */
  decidedElsewhere(interruptId: string): void {
    const open = this.open.filter((interrupt) => interrupt.id !== interruptId);
    if (open.length === this.open.length) return;
    this.host.agent.pendingInterrupts = open;
    this.resolutions.delete(interruptId);
    this.host.publish({ interrupts: this.view() });
  }

  /** A resume names the interrupted run as its parent; HttpAgent has no parameter for it (docs/hitl.md). */
  readonly withParentRunId: MiddlewareFunction = (input, next) =>
    next.run(input.resume?.length && this.interruptedRunId ? { ...input, parentRunId: this.interruptedRunId } : input);

  /** The open interrupts as the UI takes them, each bound to this batch. */
  view(open: readonly Interrupt[] = this.open): PendingInterrupt[] {
    return open.map((interrupt) => {
      const details = interruptDetails(interrupt);
      return {
        ...interrupt,
        ...details,
        // Named only when a subagent raised it: the chat's own agent goes without saying.
        agent: details.agent === this.host.agentName ? undefined : details.agent,
        resolution: this.resolutions.get(interrupt.id) ?? null,
        resolveInterrupt: (approved, options) => this.resolve(interrupt.id, approved, options),
        cancel: () => this.cancel(interrupt.id),
        clearResolution: () => this.clear(interrupt.id),
        decline: (reason) => this.decline(interrupt.id, reason),
      };
    });
  }

  private find(interruptId: string): Interrupt | undefined {
    return this.open.find((interrupt) => interrupt.id === interruptId);
  }

  private stage(resolutions: InterruptResolution[]): void {
    for (const resolution of resolutions) this.resolutions.set(resolution.entry.interruptId, resolution);
    this.host.publish({ interrupts: this.view() });
  }

  /** One resume run for the whole batch, once every open interrupt has a valid decision. */
  private async submitWhenDecided(): Promise<void> {
    if (this.batching || !this.ready()) return;
    await this.host.submit(this.open.map((interrupt) => this.resolutions.get(interrupt.id)!.entry));
  }
}
