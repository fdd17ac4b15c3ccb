// A turn's two meetings with the queue (docs/turn-control.md, "Queue"): a request that finds
// the session busy has its messages queued and follows their run once it goes out, and a turn
// that ended sends the next queued message.
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../../store/messages';
import { Refusal } from '../errors';
import { sessionKeyOf, queuedWaitMs } from '../session';
import type { CursorPosition, StreamPart } from '../stream';
import { followRun } from '../turn';
import type { RunRequest, StartedRun } from '../turn';
import { enqueueWithinLimit, sendQueued, untilSent, type StartRun } from './queue';

/**
 * The request's messages go to the queue; its run is the last one's, followed once it goes out.
 * A reader waits for that at most queuedWaitMs(): then its stream ends with `message_queued`
 * (the message stays queued, and its run is named), rather than hanging while a long turn runs.
 */
export async function queueBehind(request: RunRequest, messages: ChatMessage[], start: StartRun): Promise<StartedRun> {
  const { store, sessionId, agent } = request;
  // All or none (queue_full), counted and written as one step.
  const entries = messages.map((message, index) => ({ message, runId: (index === messages.length - 1 && request.runId) || randomUUID() }));
  const queued = await enqueueWithinLimit(store, sessionId, entries, request.source);
  const item = queued.at(-1)!;
  const followed = followRun(request, item.runId);
  async function* stream(after?: CursorPosition | null, signal?: AbortSignal): AsyncIterable<StreamPart> {
    const started: StreamPart = { runId: item.runId, part: { type: 'run-started', threadId: sessionKeyOf(sessionId), runId: item.runId } };
    let sent: boolean;
    try {
      sent = await untilSent(store, agent, item, signal, queuedWaitMs());
    } catch (error) {
      // Its sender removed the message before it went out: the request ends, told so, as a run
      // that never started (docs/turn-control.md, "Queue").
      if (!(error instanceof Refusal) || error.code !== 'not_queued') throw error;
      yield started;
      yield {
        runId: item.runId,
        part: { type: 'run-error', code: 'not_queued', message: error.message, ...(error.details ? { details: error.details } : {}) },
      };
      return;
    }
    if (!sent) {
      if (signal?.aborted) return;
      yield started;
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
export async function sendNextQueued(request: RunRequest, start: StartRun): Promise<void> {
  try {
    const next = await sendQueued(request.store, request.agent, request.sessionId, start);
    await next?.done;
  } catch (error) {
    console.error(`[stackbone] could not send the next queued message of ${request.sessionId}:`, error);
  }
}
