// A tool call as a function call in OpenAI's shape ({id, type: 'function', function: {name,
// arguments}}), which AG-UI's messages adopt as well: one translation for both wires.
import type { ToolCall } from '../store/messages';

export function functionCall(call: ToolCall) {
  return { id: call.id, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) } };
}
