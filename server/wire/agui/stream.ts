// A thread's parts as an AG-UI event stream. Each part carries its cursor as the SSE `id:`,
// so a client that loses the connection re-joins with `Last-Event-ID` and gets exactly what
// it missed (docs/internals/architecture.md, "Streams and cursors"). A part that is several AG-UI events
// (a reasoning span opening with its message) is written as one chunk, its cursor on the last.
import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { StreamSlot } from '../../http/limits';
import { sseResponse } from '../../http/sse';
import type { Refusal, StreamPart, VoteReader } from '../../runtime';
import { toAgUiEvents } from './events';

export interface AgUiStreamContext {
  threadId: string;
  /** The run the request named; a part's own run wins. */
  runId: string;
  strict: boolean;
  accept?: string;
  /** Sent as the SSE `retry:` field: a stream meant to be reopened says how soon. */
  retryMs?: number;
  /** The owner's open-stream slot, given back when the stream ends (docs/security.md). */
  slot?: StreamSlot;
  /** Who reads the votes it carries (docs/approvals.md, "Votes"). */
  voteReader?: VoteReader;
}

export function agUiStream(parts: AsyncIterable<StreamPart>, context: AgUiStreamContext): Response {
  const encoder = new EventEncoder({ accept: context.accept });
  return sseResponse(
    parts,
    ({ cursor, runId, part }) => {
      const events = toAgUiEvents(part, { threadId: context.threadId, runId: runId ?? context.runId, strict: context.strict, voteReader: context.voteReader });
      const last = events.length - 1;
      return events.map((event, i) => `${cursor === undefined || i < last ? '' : `id: ${cursor}\n`}${encoder.encodeSSE(event)}`).join('');
    },
    { retryMs: context.retryMs, slot: context.slot },
  );
}

/** A refused run is still an AG-UI run: it starts and ends with RUN_ERROR, having written nothing. */
export function refusedRun(error: Refusal, context: AgUiStreamContext): Response {
  const encoder = new EventEncoder({ accept: context.accept });
  const events: BaseEvent[] = [
    { type: EventType.RUN_STARTED, threadId: context.threadId, runId: context.runId } as BaseEvent,
    // metadata names what was refused (e.g. the interrupt), so a client can point at it.
    { type: EventType.RUN_ERROR, code: error.code, message: error.message, ...(error.details ? { metadata: error.details } : {}) } as BaseEvent,
  ];
  return sseResponse(
    (async function* () {
      yield* events;
    })(),
    (event) => encoder.encodeSSE(event),
    { slot: context.slot },
  );
}
