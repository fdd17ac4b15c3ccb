// Starting a turn with the message queue wired in (docs/turn-control.md, "Queue"). A turn sends
// the next queued message when it ends and queues a request that finds the session busy; the
// queue, in turn, starts turns. Each takes the other as a function handed in here, so neither
// imports the other: this file is the one place the two meet.
import type { DeepAgent, FindAgent } from '../../authoring';
import type { EventStore, QueuedMessage } from '../../store/types';
import type { RunRequest, StartedRun, TurnQueue } from '../turn';
import { startRunWithQueue } from '../turn';
import { changeQueue as applyQueueOperation, sendQueued as sendFromQueue, type QueueOperation, type QueueRequest } from './queue';
import { queueBehind, sendNextQueued } from './queued-run';

const turnQueue: TurnQueue = {
  queueBehind: (request, messages) => queueBehind(request, messages, startRun),
  afterTurn: (request) => sendNextQueued(request, startRun),
};

/**
 * Starts a run: checks the request against the session and takes the session. Throws
 * Refusal — having written nothing — when the run may not start.
 */
export function startRun(request: RunRequest): Promise<StartedRun> {
  return startRunWithQueue(request, turnQueue);
}

/** Applies one operation to a session's queue; answers the queue as it stands after it. */
export function changeQueue(store: EventStore, findAgent: FindAgent, request: QueueRequest, operation: QueueOperation): Promise<QueuedMessage[]> {
  return applyQueueOperation(store, findAgent, request, operation, startRun);
}

/** Sends the queue's next message when the session is free for it (queue.ts, sendQueued). */
export function sendQueued(store: EventStore, agent: DeepAgent, sessionId: string): Promise<StartedRun | undefined> {
  return sendFromQueue(store, agent, sessionId, startRun);
}
