// A Responses client's answers to the agent's pauses, as runtime decisions (docs/internals/wires.md,
// "The Responses wire"): an `mcp_approval_response` approves or rejects (with its reason, which
// the model is told); a `function_call_output` for a question's `request_input` call is the
// answer. The runtime checks them (exactly once, every open interrupt answered, the schema):
// this only says which is which.
import type { InterruptRecord } from '../../store/pauses';
import type { DecisionRequest, InterruptResponse } from '../../runtime';
import type { WireMessage } from '../chat/chat-turn';
import type { ApprovalAnswer } from './input';

export interface Answers {
  decisions: (DecisionRequest | InterruptResponse)[];
  /** The input without the answers to questions. */
  messages: WireMessage[];
}

export function answersOf(approvals: ApprovalAnswer[], messages: WireMessage[], pending: InterruptRecord[]): Answers {
  const decisions: Answers['decisions'] = approvals.map((answer) => ({
    interruptId: answer.interruptId,
    status: answer.approve ? ('approved' as const) : ('denied' as const),
    ...(answer.reason ? { reason: answer.reason } : {}),
  }));
  const questions = new Set(pending.filter((record) => record.reason === 'input_required').map((record) => record.id));
  const rest: WireMessage[] = [];
  for (const entry of messages) {
    const { message } = entry;
    if (message.role === 'tool' && questions.has(message.toolCallId)) {
      decisions.push({ interruptId: message.toolCallId, status: 'resolved', payload: parseAnswer(message.content) });
    } else rest.push(entry);
  }
  return { decisions, messages: rest };
}

/** The answer as JSON when it is JSON (an object for a form), else the text itself. */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
