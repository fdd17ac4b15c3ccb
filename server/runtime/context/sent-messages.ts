// What a model step is sent of a conversation once it was compacted (docs/models.md, "Long
// threads"): the log keeps every message; a summary takes the place of the older ones it stands
// for, or, when the summary call failed, their bulky tool results are cut to a note. Pure: every
// step, every later turn and a recovered run rebuild the same messages from the same log.
import type { ContextCompaction } from '../../store/events';
import type { ChatMessage, ToolMessage } from '../../store/messages';

/** A tool result longer than this is cut by a trim. */
const TRIM_RESULTS_OVER_CHARS = 400;
/** What a trimmed result keeps of its start, so the model still sees what it was. */
const TRIM_KEEP_CHARS = 120;

/** The id of the message a summary is sent as: never a log message's (those are UUIDs or a client's ids). */
const SUMMARY_MESSAGE_PREFIX = 'compaction:';

/** The text the model reads in place of the older turns. */
function summaryMessageText(summary: string): string {
  return `Earlier messages of this conversation were summarised to fit the context budget. The summary:\n${summary}`;
}

/** The messages as sent, after each compaction in turn (a summary replaces every compaction before it). */
export function sentMessages(messages: ChatMessage[], compactions: readonly ContextCompaction[] | undefined): ChatMessage[] {
  let sent = messages;
  for (const compaction of compactions ?? []) sent = applyCompaction(sent, compaction);
  return sent;
}

/** One compaction on messages as sent so far; a compaction whose message is not there changes nothing. */
export function applyCompaction(messages: ChatMessage[], compaction: ContextCompaction): ChatMessage[] {
  const through = messages.findIndex((message) => message.id === compaction.throughMessageId);
  if (through < 0) return messages;
  const older = messages.slice(0, through + 1);
  const newer = messages.slice(through + 1);
  if (compaction.method === 'trim') return [...older.map((message) => (message.role === 'tool' ? trimmedResult(message) : message)), ...newer];
  // A client's own system messages are instructions, not conversation: they stay. An earlier summary is in this one.
  const instructions = older.filter((message) => (message.role === 'system' || message.role === 'developer') && !isSummary(message));
  const summary: ChatMessage = {
    id: `${SUMMARY_MESSAGE_PREFIX}${compaction.throughMessageId}`,
    role: 'system',
    content: summaryMessageText(compaction.summary),
  };
  return [...instructions, summary, ...newer];
}

/** A long result cut to its start and a note; a short one as it is. The call keeps its result: the pair stays valid. */
export function trimmedResult(message: ToolMessage): ToolMessage {
  if (message.content.length <= TRIM_RESULTS_OVER_CHARS) return message;
  const start = message.content.slice(0, TRIM_KEEP_CHARS);
  return { ...message, content: `${start}… [trimmed to fit the context budget: ${message.content.length} characters in all]` };
}

export function isSummary(message: ChatMessage): boolean {
  return message.id.startsWith(SUMMARY_MESSAGE_PREFIX);
}
