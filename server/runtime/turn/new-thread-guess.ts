// A thread that looks new starts without reading its session first. Its run's first append
// creates the session, and the store refuses that append when the session exists after all
// (ConcurrentAppendError, nothing written): the run then starts again from a read of the
// session, as every other run does. On PostgreSQL the read is a round trip before the first
// token that a new thread's turn no longer waits on (docs/internals/benchmarks.md, "Where a
// short turn's time goes on PostgreSQL").
import type { EventStore } from '../../store/types';
import { holdsView } from '../session';
import type { RunRequest } from './run-request';

const CLIENT_SOURCES: ReadonlySet<RunRequest['source']> = new Set(['agui', 'openai', 'anthropic', 'mcp']);

/**
 * Whether a request is worth starting as a new thread's first turn: it brings nothing that
 * needs the thread's past (decisions, a retry, an undo, a head it expects), no message an
 * earlier turn would have answered (a client of an existing thread echoes its history, the
 * assistant's replies included), and this process holds no view of the thread.
 * A wrong guess costs the refused append and the read it skipped; it never changes the outcome.
 */
export function looksLikeNewThread(request: RunRequest, store: EventStore): boolean {
  if (request.opened || request.decisions?.length || request.retry || request.undo || request.atSeq !== undefined) return false;
  // A client's first message; the server's own runs (the queue, a timer, a decision) continue threads.
  if (request.durable === false || !CLIENT_SOURCES.has(request.source)) return false;
  if (request.messages.some((message) => message.role === 'assistant' || message.role === 'tool')) return false;
  return !holdsView(store, request.sessionId);
}
