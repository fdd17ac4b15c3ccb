// What a stop keeps of the model step it cut (docs/hitl.md, "Stopping a run"): the parts
// up to the frontier the user saw, closed off. Text and reasoning up to there stay; a tool call
// whose arguments were complete stays (to be closed as not run); one still streaming is a draft
// and leaves the conversation.
import { parseCursor } from '../stream';
import type { StreamedPart } from '../../store/events';
import type { ReasoningPart, ToolCall } from '../../store/messages';

export interface KeptStep {
  stream: StreamedPart[];
  text: string;
  toolCalls: ToolCall[];
  reasoning: ReasoningPart[];
}

/**
 * `streamed`: the step's parts in order, as sent under cursors `<stepSeq>.<j>`.
 * `frontier`: the stop's frontier; null keeps everything that streamed.
 * `calls`: the step's complete tool calls; `reasoning`: its reasoning parts, whose metadata a kept part keeps.
 */
export function keptStep(streamed: StreamedPart[], stepSeq: number, frontier: string | null, calls: ToolCall[], reasoning: ReasoningPart[] = []): KeptStep {
  const at = frontier === null ? null : parseCursor(frontier);
  const count = at === null || at.seq > stepSeq ? streamed.length : at.seq < stepSeq ? 0 : Math.min(streamed.length, at.j + 1);
  const stream = streamed.slice(0, count);
  let text = '';
  let textOpen: string | undefined;
  const openCalls = new Set<string>();
  const ended = new Set<string>();
  // Each reasoning part's text as far as the user saw it; one cut open is closed without the metadata its end would have brought.
  const seen = new Map<string, string>();
  const openReasoning = new Set<string>();
  for (const part of stream) {
    if (part.type === 'reasoning-start') {
      seen.set(part.messageId, '');
      openReasoning.add(part.messageId);
    }
    if (part.type === 'reasoning-delta') seen.set(part.messageId, (seen.get(part.messageId) ?? '') + part.delta);
    if (part.type === 'reasoning-end') openReasoning.delete(part.messageId);
    if (part.type === 'text-start') textOpen = part.messageId;
    if (part.type === 'text-end') textOpen = undefined;
    if (part.type === 'text-delta') text += part.delta;
    if (part.type === 'tool-call-start') openCalls.add(part.toolCallId);
    if (part.type === 'tool-call-end') {
      openCalls.delete(part.toolCallId);
      ended.add(part.toolCallId);
    }
  }
  for (const id of openReasoning) stream.push({ type: 'reasoning-end', messageId: id });
  if (textOpen) stream.push({ type: 'text-end', messageId: textOpen });
  for (const id of openCalls) stream.push({ type: 'tool-call-end', toolCallId: id });
  const keptReasoning = reasoning.flatMap((part): ReasoningPart[] => {
    const text = seen.get(part.id);
    if (text === undefined) return [];
    const { providerMetadata, ...rest } = part;
    return [{ ...rest, text, ...(providerMetadata && !openReasoning.has(part.id) ? { providerMetadata } : {}) }];
  });
  return { stream, text, toolCalls: calls.filter((call) => ended.has(call.id)), reasoning: keptReasoning };
}
