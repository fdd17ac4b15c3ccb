// One page of a thread's messages, for a reader that shows a thread (the hydration JSON,
// GET /api/agents/{name}?threadId=T; docs/internals/architecture.md, "Streams and cursors"): the newest
// messages by default, and older ones a page at a time by the cursor each page gives. A thread may
// be long; one read must not serialise all of it (docs/security.md, "What a request may carry").
import { approximateBytes } from '../common';
import { Refusal } from '../errors';

/** Messages a page holds when the reader names no `limit`, and the most it may name. */
export const PAGE_MESSAGES = 100;
export const MAX_PAGE_MESSAGES = 500;
/** A page stops short of its count once its messages hold about this much text (one message at least). */
const PAGE_BYTES = 1_000_000;

export interface MessagePage<M> {
  messages: M[];
  /** The id of the page's oldest message, to ask for the page before it (`before`); null when there is none. */
  olderCursor: string | null;
}

/** The messages before `before` (by id; the end when absent), newest last, at most `limit` of them. */
export function messagePage<M extends { id: string }>(messages: readonly M[], options: { before?: string; limit?: number } = {}): MessagePage<M> {
  const end = options.before === undefined ? messages.length : messages.findIndex((message) => message.id === options.before);
  if (end < 0) throw new Refusal('invalid_cursor', `before: the thread has no message "${options.before}" (send a page's olderCursor).`);
  const limit = options.limit ?? PAGE_MESSAGES;
  let start = end;
  let bytes = 0;
  while (start > 0 && end - start < limit) {
    bytes += approximateBytes(messages[start - 1]);
    if (bytes > PAGE_BYTES && start < end) break;
    start--;
  }
  return { messages: messages.slice(start, end), olderCursor: start > 0 ? messages[start]!.id : null };
}
