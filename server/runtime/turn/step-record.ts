// What a model step becomes in the log (docs/internals/architecture.md, "The step loop"): one
// assistant_step event. A step cut by a stop keeps what the user saw, up to the stop's frontier
// (kept-step.ts); a failed step keeps what streamed and fails the turn with a reference to the
// server's log; an answer ends the turn; tool calls go on to run.
import type { SessionEvent, StreamedPart } from '../../store/events';
import type { AssistantMessage, ReasoningPart, ToolCall } from '../../store/messages';
import { logFailure, modelFailure } from '../errors';
import { keptStep } from './kept-step';
import type { ModelStep } from './model-step';
import type { Advance } from './run-types';

export interface StepContext {
  /** The delegated task the step belongs to, if not the root thread. */
  scope?: string;
  /** What streamed live, in order (empty for a delegated task's step). */
  streamed: StreamedPart[];
  /** The seq the step is written at: its streamed parts' cursors name it. */
  stepSeq: number;
  /** The run was stopped (or lost its lease) during the step. */
  aborted: boolean;
  /** The cursor of the last part the user saw, from the stop. */
  frontier: string | null;
  /** Names the model call in the server's log, should it have failed. */
  failedCall: string;
}

/** The step as the turn's outcome, or as the event to write before its tool calls run. */
export function stepRecord(step: ModelStep, context: StepContext): Advance | { kind: 'tool-calls'; step: SessionEvent } {
  const { text, toolCalls, failure } = step;
  const { streamed } = context;
  // What the call cost counts whatever became of the step, when the provider reported it (docs/internals/architecture.md, "Usage").
  const cost = { ...(step.usage ? { usage: step.usage } : {}), model: step.model };
  const scoped = context.scope ? { scope: context.scope } : {};
  const wrote = streamed.length > 0 || text !== '' || step.reasoning.length > 0;
  if (context.aborted) {
    // Keep what the user saw (up to the stop's frontier); calls still streaming are drafts.
    const kept = keptStep(streamed, context.stepSeq, context.frontier, toolCalls, step.reasoning);
    // A step that streamed anything is written, even empty: its cursors are spoken for.
    const partial: SessionEvent[] = wrote
      ? [
          {
            type: 'assistant_step',
            message: assistantMessage(step, kept.text, kept.toolCalls, kept.reasoning),
            finishReason: 'abort',
            ...cost,
            ...scoped,
            ...(streamed.length ? { stream: kept.stream } : {}),
          },
        ]
      : [];
    return { kind: 'cancelled', before: partial };
  }
  const recorded = streamed.length ? { stream: streamed } : {};
  if (failure !== undefined) {
    const partial: SessionEvent[] = wrote
      ? [{ type: 'assistant_step', message: assistantMessage(step, text, [], step.reasoning), finishReason: 'error', ...cost, ...scoped, ...recorded }]
      : [];
    // A provider's own text (its response body, a URL) goes to the server's log; the client gets a code, the status and a reference.
    const reference = logFailure(`${context.failedCall} failed`, failure);
    const { status, retryable, timedOutAfterMs } = modelFailure(failure);
    const what = timedOutAfterMs !== undefined ? `timed out after ${timedOutAfterMs / 1000} s; ` : status !== undefined ? `HTTP ${status}; ` : '';
    return {
      kind: 'failed',
      code: 'model_error',
      message: `The model call failed (${what}ref ${reference}; the details are in the server's log). Retry the turn.`,
      details: { reference, retryable },
      before: partial,
    };
  }
  const event: SessionEvent = {
    type: 'assistant_step',
    message: assistantMessage(step, text, toolCalls, step.reasoning),
    finishReason: step.finishReason,
    ...cost,
    ...scoped,
    ...recorded,
  };
  return toolCalls.length === 0 ? { kind: 'answered', step: event, text } : { kind: 'tool-calls', step: event };
}

/** The step's message: its text, calls and reasoning as kept, with what the provider said about them and the sources it cited. */
function assistantMessage(step: ModelStep, text: string, toolCalls: ToolCall[], reasoning: ReasoningPart[]): AssistantMessage {
  return {
    id: step.messageId,
    role: 'assistant',
    content: text,
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(reasoning.length ? { reasoning } : {}),
    ...(step.sources.length ? { sources: step.sources } : {}),
    ...(step.textMetadata && text ? { providerMetadata: step.textMetadata } : {}),
  };
}
