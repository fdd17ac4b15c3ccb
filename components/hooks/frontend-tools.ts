// Helpers for answering frontend tools: find the call the model made, and phrase the
// answer as the `role: 'tool'` message the next run carries back to the server.
import { randomUUID, type Message, type ToolCall } from '@ag-ui/client';

export function findToolCall(messages: readonly Message[], toolCallId: string): ToolCall | undefined {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls?.find((candidate) => candidate.id === toolCallId);
    if (call) return call;
  }
  return undefined;
}

/** A tool message answering `toolCallId`; results that are not text travel as JSON. */
export function toolResultMessage(toolCallId: string, answer: { result: unknown } | { error: string }): Message {
  if ('error' in answer) {
    return { id: randomUUID(), role: 'tool', toolCallId, content: answer.error, error: answer.error };
  }
  const content = typeof answer.result === 'string' ? answer.result : JSON.stringify(answer.result ?? null);
  return { id: randomUUID(), role: 'tool', toolCallId, content };
}
