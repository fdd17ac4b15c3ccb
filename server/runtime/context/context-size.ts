// How big a conversation is, in tokens (docs/models.md, "Long threads"): what the provider
// reported the last step was sent, plus an estimate of what came after it; an estimate alone
// when no step since the last compaction reported its input.
import type { ChatMessage } from '../../store/messages';
import type { Conversation } from '../session';
import { sentMessages } from './sent-messages';

/** Characters per token of the estimate: the usual rule of thumb for English text and JSON. */
const CHARS_PER_TOKEN = 4;

/** The estimated tokens of messages as a model is sent them: their text, calls, results and reasoning. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.name.length + JSON.stringify(call.input ?? null).length;
      for (const part of message.reasoning ?? []) chars += part.text.length;
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The size of what the conversation's next step would be sent, as it stands. */
export function conversationSize(conversation: Conversation): number {
  const { measured, messages } = conversation;
  if (measured && measured.messageCount <= messages.length) return measured.inputTokens + estimateTokens(messages.slice(measured.messageCount));
  return estimateTokens(sentMessages(messages, conversation.contextCompactions));
}
