// What a stop keeps of the model step it cut (docs/hitl.md, "Stopping a run"): the parts
// up to the frontier the user saw, closed off. Text up to there stays; a tool call whose
// arguments were complete stays (to be closed as not run); one still streaming is a draft
// and leaves the conversation.
import { parseCursor } from '../stream';
import type { StreamedPart, ToolCall } from '../../events';

export interface KeptStep {
  stream: StreamedPart[];
  text: string;
  toolCalls: ToolCall[];
}

/**
 * `streamed`: the step's parts in order, as sent under cursors `<stepSeq>.<j>`.
 * `frontier`: the stop's frontier; null keeps everything that streamed.
 * `calls`: the step's complete tool calls.
 */
export function keptStep(streamed: StreamedPart[], stepSeq: number, frontier: string | null, calls: ToolCall[]): KeptStep {
  const at = frontier === null ? null : parseCursor(frontier);
  const count = at === null || at.seq > stepSeq ? streamed.length : at.seq < stepSeq ? 0 : Math.min(streamed.length, at.j + 1);
  const stream = streamed.slice(0, count);
  let text = '';
  let textOpen: string | undefined;
  const openCalls = new Set<string>();
  const ended = new Set<string>();
  for (const part of stream) {
    if (part.type === 'text-start') textOpen = part.messageId;
    if (part.type === 'text-end') textOpen = undefined;
    if (part.type === 'text-delta') text += part.delta;
    if (part.type === 'tool-call-start') openCalls.add(part.toolCallId);
    if (part.type === 'tool-call-end') {
      openCalls.delete(part.toolCallId);
      ended.add(part.toolCallId);
    }
  }
  if (textOpen) stream.push({ type: 'text-end', messageId: textOpen });
  for (const id of openCalls) stream.push({ type: 'tool-call-end', toolCallId: id });
  return { stream, text, toolCalls: calls.filter((call) => ended.has(call.id)) };
}
