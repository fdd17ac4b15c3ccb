// The older part of a conversation as a summary request's transcript (models/summary-request.ts):
// one line per message, call and result, the earlier summary first when there is one.
import type { ChatMessage } from '../../store/messages';
import { TRANSCRIPT_LABELS as LABEL, transcriptLine } from '../../models/summary-request';
import { isSummary } from './sent-messages';

export function transcriptOf(messages: readonly ChatMessage[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        lines.push(transcriptLine(isSummary(message) ? LABEL.summary : LABEL.system, isSummary(message) ? summaryOf(message.content) : message.content));
        break;
      case 'user':
        lines.push(transcriptLine(LABEL.user, message.content));
        break;
      case 'assistant':
        if (message.content) lines.push(transcriptLine(LABEL.assistant, message.content));
        for (const call of message.toolCalls ?? []) lines.push(transcriptLine(LABEL.call, `${call.name} ${JSON.stringify(call.input ?? {})}`));
        break;
      case 'tool':
        lines.push(transcriptLine(message.isError ? LABEL.error : LABEL.result, `${message.toolName}: ${message.content}`));
        break;
    }
  }
  return lines;
}

/** A summary message's summary, without the line that introduces it to the model. */
function summaryOf(content: string): string {
  const newline = content.indexOf('\n');
  return newline < 0 ? content : content.slice(newline + 1);
}
