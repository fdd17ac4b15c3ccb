// A run on screen, from its start to its end: this tab's own (an HTTP run, then a follow-up
// per round of frontend tools) or one of another source replayed from the session stream.
// It turns the agent's callbacks into the snapshot, token by token, and hands each run's
// outcome to the part it concerns (the interrupt batch, the frontend-tool loop).
import { randomUUID, type AgentSubscriber, type BaseEvent, type Message, type ResumeEntry } from '@ag-ui/client';
import type { Observable } from 'rxjs';
import { failureDetails, threadMovedOn, toAgentError } from './agent-error';
import type { FrontendToolLoop } from './frontend-tool-loop';
import type { InterruptBatch } from './interrupt-batch';
import type { SnapshotHost } from './snapshot';
import type { StateDraft } from './state-draft';
import type { ThreadFollower } from './thread-follower';
import type { ThreadHttpAgent } from './thread-http-agent';
import type { ToolOutcomes } from './tool-outcomes';

export interface RunLifecycleParts extends SnapshotHost {
  readonly agent: ThreadHttpAgent;
  readonly batch: InterruptBatch;
  readonly draft: StateDraft;
  readonly follower: ThreadFollower;
  readonly frontendTools: FrontendToolLoop;
  readonly outcomes: ToolOutcomes;
  /** The model picked in this tab, which runs ask for (docs/models.md, "Choosing a model"). */
  readonly pickedModel: () => string | undefined;
}

export class RunLifecycle {
  /** The user asked to stop the run on screen: its abort is not a failure. */
  private stopRequested = false;
  /** The run on screen (or the last one): stop and steer name it. */
  private currentRunId: string | null = null;

  constructor(private readonly parts: RunLifecycleParts) {
    parts.agent.subscribe(this.liveUpdates());
  }

  get runId(): string | null {
    return this.currentRunId;
  }

  /** This tab's run: `resume` answers open interrupts, `retry` runs a failed turn again. */
  async run(resume?: ResumeEntry[], retry?: { retryId: string }): Promise<void> {
    this.stopRequested = false;
    this.parts.publish({ status: 'running', error: null });
    try {
      const pending = await this.runOnce(resume, retry);
      await this.parts.frontendTools.run(pending, { agent: this.parts.agent, runAgain: () => this.runOnce(), stopped: () => this.stopRequested });
      this.settle();
    } catch (error) {
      this.settle({ error });
    }
  }

  /** Shows a run of another source (thread-follower.ts) through the same pipeline as this tab's own. */
  async replay(runId: string, events: Observable<BaseEvent>, cursors: (string | undefined)[]): Promise<void> {
    this.stopRequested = false;
    this.currentRunId = runId;
    // A run started on the thread, so whatever was open here was decided (or expired) on the
    // way: a run can only start on a thread with open interrupts by answering all of them.
    this.parts.batch.discard();
    this.parts.publish({ status: 'running', error: null, interrupts: [] });
    try {
      // Another tab's frontend tools are that tab's to answer: pending calls are left alone.
      await this.parts.agent.applyRun(runId, events, cursors, this.runSubscriber({ onPending: () => undefined }));
      this.settle();
    } catch (error) {
      this.settle({ error });
    }
  }

  /** The user stops the run on screen: running frontend tools are aborted, its end is not a failure. */
  markStopped(): void {
    this.stopRequested = true;
    this.parts.frontendTools.abort();
  }

  /** One HTTP run. Resolves with the frontend tool calls it left to answer. */
  private async runOnce(resume?: ResumeEntry[], retry?: { retryId: string }): Promise<string[]> {
    this.parts.draft.flushIntoRun();
    let pending: string[] = [];
    // Named here, not by HttpAgent, so the session stream knows this run as this tab's own.
    const runId = randomUUID();
    this.parts.follower.markOwn(runId);
    const model = this.parts.pickedModel();
    await this.parts.agent.runAgent(
      {
        runId,
        tools: this.parts.frontendTools.declarations(),
        ...(resume ? { resume } : {}),
        // AG-UI has no retry or model field; the server reads them from forwardedProps
        // (docs/turn-control.md; docs/models.md, "Choosing a model").
        ...(retry || model ? { forwardedProps: { ...(retry ? { retry } : {}), ...(model ? { model } : {}) } } : {}),
      },
      this.runSubscriber({ resume, onPending: (ids) => (pending = ids) }),
    );
    return this.parts.getSnapshot().error ? [] : pending;
  }

  /** The store after a run (its own or another's) ended, by itself or with `error`. */
  private settle(failure?: { error: unknown }): void {
    const done = { streamingMessageId: null, streamingReasoningId: null, activeSteps: [] };
    if (!failure) this.parts.publish({ status: this.parts.getSnapshot().error ? 'error' : 'idle', ...done });
    // HttpAgent swallows some abort errors and rethrows others (it depends on where the
    // stream was cut); a stop the user asked for is never a failure.
    else if (this.stopRequested) this.parts.publish({ status: 'idle', ...done });
    else this.parts.publish({ status: 'error', error: toAgentError(failure.error), ...done });
    this.parts.follower.runEnded();
    this.parts.draft.runEnded();
  }

  /** What a run (or a replayed one) does with its outcome and its errors. */
  private runSubscriber({ resume, onPending }: { resume?: ResumeEntry[]; onPending: (toolCallIds: string[]) => void }): AgentSubscriber {
    return {
      onRunFinishedEvent: (params) => {
        // HttpAgent hands over the outcome here, not in runAgent's result: the producer's
        // pendingToolCallIds (or the calls this run left unanswered), or the interrupts.
        // (It updates its own pendingInterrupts after every subscriber has seen the event.)
        if (params.outcome === 'success') onPending(params.pendingToolCallIds);
        this.parts.batch.runEnded(this.currentRunId, params.outcome === 'interrupt' ? params.interrupts : null);
      },
      onRunErrorEvent: ({ event }) => {
        // HttpAgent turns our own abort into a synthetic RUN_ERROR {code: 'abort'}: a stop
        // the user asked for is not a failure.
        if (this.stopRequested && event.code === 'abort') return;
        if (resume && threadMovedOn(event.code)) this.parts.batch.forget();
        const details = failureDetails((event as { metadata?: unknown }).metadata);
        this.parts.publish({ error: { message: event.message, ...(event.code ? { code: event.code } : {}), ...(details ? { details } : {}) } });
      },
    };
  }

  /** The agent's callbacks that keep the snapshot current, token by token. */
  private liveUpdates(): AgentSubscriber {
    const { publish, getSnapshot } = this.parts;
    return {
      // HttpAgent hands over a fresh copy of the whole list on every event (including each
      // TEXT_MESSAGE_CONTENT), so streamed text renders live from here. Reading the text from
      // onTextMessageContentEvent instead would need textMessageBuffer + delta: the buffer
      // there is the text *before* the delta.
      onMessagesChanged: ({ messages }) => publish({ messages: messages as Message[] }),
      onStateChanged: () => publish({ state: this.parts.draft.visible() }),
      // The server's log is the order of the thread. HttpAgent would keep its local order and
      // append what it lacked, so a turn made in another tab or over another wire would land
      // after this tab's newest message; taking the snapshot as it is keeps every tab alike.
      onMessagesSnapshotEvent: ({ event }) => ({ messages: event.messages }),
      onRunStartedEvent: ({ event }) => {
        this.currentRunId = event.runId;
        if (getSnapshot().threadExists) return;
        publish({ threadExists: true });
        // A thread this tab just created: from now on others may add to it too.
        this.parts.follower.threadKnown();
      },
      onTextMessageStartEvent: ({ event }) => publish({ streamingMessageId: event.messageId }),
      onTextMessageEndEvent: () => publish({ streamingMessageId: null }),
      onReasoningMessageStartEvent: ({ event }) => publish({ streamingReasoningId: event.messageId }),
      onReasoningMessageEndEvent: () => publish({ streamingReasoningId: null }),
      // A decision the run carries (its input, when it resumes) and the calls its stop cut.
      onCustomEvent: ({ event }) => this.parts.outcomes.take(event.name, event.value),
      onStepStartedEvent: ({ event }) => publish({ activeSteps: [...getSnapshot().activeSteps, event.stepName] }),
      onStepFinishedEvent: ({ event }) => {
        const { activeSteps } = getSnapshot();
        const index = activeSteps.lastIndexOf(event.stepName);
        if (index >= 0) publish({ activeSteps: activeSteps.filter((_, i) => i !== index) });
      },
    };
  }
}
