// Whether a conversation needs compacting before its next step, and what to compact
// (docs/models.md, "Long threads"): over the agent's budget, with a cut point past what the last
// compaction covered. Pure: the runner does the summary call and writes the event.
import type { ContextCompaction } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import type { Conversation } from '../session';
import { conversationSize, estimateTokens } from './context-size';
import { cutPoint } from './cut-point';
import { applyCompaction, sentMessages } from './sent-messages';

export interface CompactionPlan {
  /** The conversation's size now, in tokens. */
  tokensBefore: number;
  /** The messages to compact, as sent so far (an earlier summary in place of what it stands for). */
  older: ChatMessage[];
  /** The last message compacted: the compaction's throughMessageId. */
  throughMessageId: string;
}

export function planCompaction(conversation: Conversation, budget: number | undefined): CompactionPlan | undefined {
  if (budget === undefined) return undefined;
  const tokensBefore = conversationSize(conversation);
  if (tokensBefore <= budget) return undefined;
  const { messages, contextCompactions: compactions = [] } = conversation;
  const covered = Math.max(0, ...compactions.map((compaction) => messages.findIndex((message) => message.id === compaction.throughMessageId) + 1));
  const cut = cutPoint(messages, covered);
  if (cut === undefined) return undefined;
  return { tokensBefore, older: sentMessages(messages.slice(0, cut), compactions), throughMessageId: messages[cut - 1]!.id };
}

/** The size after a compaction: the size before, less what it took out of what is sent, plus what it put in. */
export function tokensAfter(conversation: Conversation, plan: CompactionPlan, compaction: Omit<ContextCompaction, 'tokensAfter'>): number {
  const before = sentMessages(conversation.messages, conversation.contextCompactions);
  const after = applyCompaction(before, { ...compaction, tokensAfter: 0 });
  return Math.max(0, plan.tokensBefore - estimateTokens(before) + estimateTokens(after));
}
