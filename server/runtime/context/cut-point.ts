// Where a compaction may cut a conversation (docs/models.md, "Long threads"): before a user
// message, so the turn in progress is sent whole, and only where every tool call before the cut
// has its result before it too — the log keeps arrival order, so a result may come after a later
// user message (one written while a decision was pending), and a call still waiting has none.
// The latest such point wins: everything older is compacted, the current turn is kept.
import type { ChatMessage } from '../../store/messages';

/**
 * The number of messages to compact (a cut before messages[n]), or undefined when no cut
 * compacts anything past `after` (the count an earlier compaction covered).
 */
export function cutPoint(messages: readonly ChatMessage[], after = 0): number | undefined {
  // Calls before each index that have no result before it: a cut there would part a pair.
  const open = new Set<string>();
  const cuts: number[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'user' && open.size === 0 && index > after) cuts.push(index);
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) open.add(call.id);
    if (message.role === 'tool') open.delete(message.toolCallId);
  }
  return cuts.at(-1);
}
