// A timer's messages carry ids of the timer's own (`<timer id>.<n>`): the session merges
// messages by id, so a timer fired twice — a crash between appending and marking it fired —
// adds its messages once (docs/turn-control.md, "Timers").
import type { ChatMessage } from './messages';

export function timerMessages(timerId: string, messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message, index) => ({ ...message, id: `${timerId}.${index}` }));
}
