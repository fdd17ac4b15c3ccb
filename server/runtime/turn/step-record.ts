// What a model step becomes in the log (docs/architecture.md, "The step loop"): one
// assistant_step event. A step cut by a stop keeps what the user saw, up to the stop's frontier
// (kept-step.ts); a failed step keeps what streamed and fails the turn with a reference to the
// server's log; an answer ends the turn; tool calls go on to run.
import type { AssistantMessage, SessionEvent, StreamedPart } from '../../events';
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
  const { messageId, text, toolCalls, finishReason, usage, failure } = step;
  const { streamed } = context;
  const scoped = context.scope ? { scope: context.scope } : {};
  if (context.aborted) {
    // Keep what the user saw (up to the stop's frontier); calls still streaming are drafts.
    const kept = keptStep(streamed, context.stepSeq, context.frontier, toolCalls);
    // A step that streamed anything is written, even empty: its cursors are spoken for.
    const partial: SessionEvent[] =
      streamed.length || text
        ? [
            {
              type: 'assistant_step',
              message: { id: messageId, role: 'assistant', content: kept.text, ...(kept.toolCalls.length ? { toolCalls: kept.toolCalls } : {}) },
              finishReason: 'abort',
              ...scoped,
              ...(streamed.length ? { stream: kept.stream } : {}),
            },
          ]
        : [];
    return { kind: 'cancelled', before: partial };
  }
  const recorded = streamed.length ? { stream: streamed } : {};
  if (failure !== undefined) {
    const partial: SessionEvent[] =
      streamed.length || text
        ? [{ type: 'assistant_step', message: { id: messageId, role: 'assistant', content: text }, finishReason: 'error', ...scoped, ...recorded }]
        : [];
    // A provider's own text (its response body, a URL) goes to the server's log; the client gets a code, the status and a reference.
    const reference = logFailure(`${context.failedCall} failed`, failure);
    const { status, retryable } = modelFailure(failure);
    return {
      kind: 'failed',
      code: 'model_error',
      message: `The model call failed (${status !== undefined ? `HTTP ${status}; ` : ''}ref ${reference}; the details are in the server's log). Retry the turn.`,
      details: { reference, retryable },
      before: partial,
    };
  }
  const message: AssistantMessage = { id: messageId, role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) };
  const event: SessionEvent = { type: 'assistant_step', message, finishReason, usage, ...scoped, ...recorded };
  return toolCalls.length === 0 ? { kind: 'answered', step: event, text } : { kind: 'tool-calls', step: event };
}
