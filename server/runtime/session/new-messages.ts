// What a new message must be, wherever it comes in — an AG-UI run, the OpenAI and Anthropic wires,
// the Responses API, a webhook or server append, the queue, guidance for a running run
// (docs/security.md, "What a request may carry"). One rule, checked where a message becomes the
// runtime's input (turn/start-run.ts, turn-control/queue.ts, turn-control/steer.ts), before
// anything is written: its id is one a URL could carry, its text is at most
// STACKBONE_MAX_MESSAGE_CHARS, and a thread whose log is full takes no new message.
import type { ChatMessage } from '../../store/messages';
import type { SessionRecord } from '../../store/types';
import { Refusal } from '../errors';
import { checkClientId } from './session-id';
import { maxMessageChars, maxThreadBytes } from './session-limits';

/** 413 `message_too_long` past maxMessageChars(). */
export function checkMessageText(content: string): void {
  const max = maxMessageChars();
  if (content.length <= max) return;
  throw new Refusal(
    'message_too_long',
    `A message's text is at most ${max.toLocaleString('en-US')} characters (STACKBONE_MAX_MESSAGE_CHARS); ` +
      `this one has ${content.length.toLocaleString('en-US')}. Nothing was written.`,
    { limit: max, length: content.length },
  );
}

/**
 * Checks the messages a request adds to a session (null: a thread not written yet): each one's id
 * and text, and — for what opens a turn, a user's message or a trusted system note — that the
 * thread's log has room for it. A tool's result and a decision still go in on a full thread, so
 * that a turn it holds can end.
 */
export function checkNewMessages(session: Pick<SessionRecord, 'logBytes'> | null, messages: readonly ChatMessage[]): void {
  for (const message of messages) {
    checkClientId(message.id, 'message id');
    checkMessageText(message.content);
  }
  checkThreadRoom(
    session?.logBytes ?? 0,
    messages.filter((message) => message.role === 'user' || message.role === 'system'),
  );
}

/** 409 `thread_full` when the messages would take the log past maxThreadBytes(); the answer says how to go on. */
function checkThreadRoom(logBytes: number, messages: ChatMessage[]): void {
  if (messages.length === 0) return;
  const max = maxThreadBytes();
  const adding = messages.reduce((bytes, message) => bytes + Buffer.byteLength(JSON.stringify(message), 'utf8'), 0);
  if (logBytes + adding <= max) return;
  throw new Refusal(
    'thread_full',
    `This thread is full: its log holds ${megabytes(logBytes)} of at most ${megabytes(max)} (STACKBONE_MAX_THREAD_BYTES), so it takes no new message. ` +
      'Start a new thread, or fork this one at an earlier message (docs/time-travel.md) and go on from there; nothing was written.',
    { logBytes, limit: max },
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
