// The output and input items of the Responses wire, in the shapes the `openai` package's types
// define (docs/internals/wires.md, "The Responses wire"): a step's text is a `message`, a span of
// reasoning a `reasoning` item, a call the client must act on a `function_call` (its own
// tool, or a question the agent asks) or an `mcp_approval_request` (a call waiting on a
// person's decision, answered by an `mcp_approval_response`).
import type { InterruptRecord } from '../../store/pauses';
import type { RunInput } from '../../runtime';
import { userTextWithAttachments } from '../chat/attachment-note';

type OutputText = { type: 'output_text'; text: string; annotations: []; logprobs: [] };
type ReasoningText = { type: 'reasoning_text'; text: string };

export type OutputItem =
  | { id: string; type: 'message'; role: 'assistant'; status: 'in_progress' | 'completed'; content: OutputText[] }
  | { id: string; type: 'reasoning'; summary: []; content: ReasoningText[] }
  | { id: string; type: 'function_call'; call_id: string; name: string; arguments: string; status: 'completed' }
  | { id: string; type: 'mcp_approval_request'; name: string; arguments: string; server_label: string };

/** The function a question of the agent's is asked through (docs/internals/wires.md, "The Responses wire"). */
const REQUEST_INPUT_FUNCTION = 'request_input';

/** A call the client must act on: its own tool's, by the call's id. */
export function functionCallItem(callId: string, name: string, args: string): OutputItem {
  return { id: `fc_${callId}`, type: 'function_call', call_id: callId, name, arguments: args, status: 'completed' };
}

/**
 * A pause for a person: an approval is an `mcp_approval_request` whose id is the interrupt's;
 * a question (requestInput) is a call of `request_input` whose call_id is the interrupt's, so
 * its `function_call_output` is the answer.
 */
export function interruptItem(record: InterruptRecord, args: string | undefined, agent: string): OutputItem {
  const json = args?.trim() ? args : JSON.stringify(record.input ?? {});
  if (record.reason === 'input_required') {
    const question = JSON.stringify({ message: record.message, tool: record.toolName, response_schema: record.responseSchema ?? {} });
    return functionCallItem(record.id, REQUEST_INPUT_FUNCTION, question);
  }
  return { id: record.id, type: 'mcp_approval_request', name: record.toolName, arguments: json, server_label: agent };
}

/** What a run started with, as input items (GET /api/v1/responses/{id}/input_items). */
export function inputItem(input: RunInput) {
  if (input.type === 'interrupt_decided') {
    const { decision } = input;
    return {
      id: `mcpr_${input.interruptId}`,
      type: 'mcp_approval_response' as const,
      approval_request_id: input.interruptId,
      approve: decision.status === 'approved',
      reason: decision.reason ?? null,
    };
  }
  const { message } = input;
  if (message.role === 'tool') {
    return { id: message.id, type: 'function_call_output' as const, call_id: message.toolCallId, output: message.content, status: 'completed' as const };
  }
  const text = message.role === 'user' ? userTextWithAttachments(message) : message.content;
  return { id: message.id, type: 'message' as const, role: message.role, status: 'completed' as const, content: [{ type: 'input_text' as const, text }] };
}
