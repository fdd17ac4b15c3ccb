// A recorded session as a replay reads it (docs/replay.md): the session's stored events, folded
// into what the replay sends (the user's messages, turn by turn), what it answers with (the
// human decisions, the tools' results) and what it compares (the calls, the final answer).
import type { Decision, InterruptRecord, InterruptReason } from '../../store/pauses';
import type { StoredEvent } from '../../store/events';
import type { ChatMessage } from '../../store/messages';

/** One tool call of the recording, with how it went. */
export interface RecordedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** A delegated task's calls carry its scope; the root thread's none. */
  scope?: string;
  /** A person was asked before it ran (an approval, not a question the tool asked). */
  askedApproval: boolean;
  /** The arguments it ran with, when an approval edited them. */
  ranInput?: unknown;
  /** Its result as the log holds it; absent when it never got one. */
  result?: { output: unknown; content: string; isError?: boolean; status?: 'denied' | 'cancelled' };
}

/** One human decision of the recording, by the call it answered. */
export interface RecordedDecision {
  interruptId: string;
  toolName: string;
  /** The arguments as the model asked them: what a replayed call is matched on. */
  input: unknown;
  reason: InterruptReason;
  decision: Decision;
}

export interface Recording {
  /** The user's messages, one list per turn, in order (continuations after a decision send none). */
  turns: ChatMessage[][];
  calls: RecordedCall[];
  decisions: RecordedDecision[];
  /** The last thing the agent said on the root thread. */
  finalAnswer: string;
  /** The last thing it said in each turn (its continuations included), in the order of `turns`. */
  answers: string[];
  /** The models the turns ran on, as the log names them. */
  models: string[];
}

/** Reads a session's stored events (oldest first) as a recording. */
export function readRecording(events: readonly StoredEvent[]): Recording {
  const turns: ChatMessage[][] = [];
  const calls = new Map<string, RecordedCall>();
  const opened = new Map<string, InterruptRecord>();
  const decisions: RecordedDecision[] = [];
  const models = new Set<string>();
  const answers: string[] = [];
  let finalAnswer = '';
  /** A run starts a turn once it adds a user message; until then (a continuation) it goes on with the last one. */
  let newRun = false;
  for (const { event } of events) {
    switch (event.type) {
      case 'run_started':
        newRun = true;
        if (event.model) models.add(event.model);
        break;
      case 'message_added':
        if (event.message.role !== 'user' || event.scope) break;
        if (newRun || turns.length === 0) {
          turns.push([]);
          answers.push('');
          newRun = false;
        }
        turns.at(-1)!.push(event.message);
        break;
      case 'assistant_step':
        for (const call of event.message.toolCalls ?? [])
          calls.set(call.id, {
            toolCallId: call.id,
            toolName: call.name,
            input: call.input,
            ...(event.scope ? { scope: event.scope } : {}),
            askedApproval: false,
          });
        if (!event.scope && event.message.content.trim()) {
          finalAnswer = event.message.content;
          if (answers.length > 0) answers[answers.length - 1] = event.message.content;
        }
        break;
      case 'tool_result': {
        const call = calls.get(event.message.toolCallId);
        if (call)
          call.result = {
            output: event.output,
            content: event.message.content,
            ...(event.message.isError ? { isError: true } : {}),
            ...(event.status ? { status: event.status } : {}),
          };
        break;
      }
      case 'interrupts_opened':
        for (const record of event.interrupts) {
          const call = calls.get(record.toolCallId);
          if (call && record.reason !== 'input_required') call.askedApproval = true;
          opened.set(record.id, record);
        }
        break;
      case 'interrupt_decided': {
        const record = opened.get(event.interruptId);
        if (!record) break;
        decisions.push({ interruptId: record.id, toolName: record.toolName, input: record.input, reason: record.reason, decision: event.decision });
        const call = calls.get(record.toolCallId);
        if (call && event.decision.status === 'approved' && event.decision.editedArgs !== undefined) call.ranInput = event.decision.editedArgs;
        break;
      }
    }
  }
  return { turns, calls: [...calls.values()], decisions, finalAnswer, answers, models: [...models] };
}
