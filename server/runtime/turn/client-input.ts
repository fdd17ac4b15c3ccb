// What a client may add to a session at the start of a run: new messages (merged by id)
// and editable state. Everything is checked before anything is written.
import type { DeepAgent } from '../../authoring';
import type { SessionEvent } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { Refusal } from '../errors';
import type { SessionView } from '../session';
import { clientStatePatch } from '../session';
import { toolKind } from '../tools';

export interface ClientInput {
  messages: ChatMessage[];
  state?: unknown;
  /** Trusted server code (docs/turn-control.md, "Server append") may add system notes too; no client may. */
  trusted?: boolean;
}

/**
 * The events that record a client's input. Messages whose id the log already has, and
 * results of calls the log already answered, are skipped (a client echoing its whole history
 * adds nothing); of the rest only user
 * messages and results of open frontend tool calls are accepted.
 */
export function acceptInput(agent: DeepAgent, view: SessionView, input: ClientInput): SessionEvent[] {
  // A reasoning part is a message of its own to AG-UI, echoed back with the rest of the history.
  const known = new Set(
    view.messages.flatMap((message) => [message.id, ...(message.role === 'assistant' ? (message.reasoning ?? []).map((part) => part.id) : [])]),
  );
  // A client may echo a result the log already has under an id of its own (TanStack AI's client does).
  const answered = new Set(view.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  // A call that paused for a person is the server's, even when its tool has gone from the agent since (a deploy): its decision closes it, not a client.
  const paused = new Set(Object.values(view.interrupts).map((state) => state.record.toolCallId));
  const openClientCalls = new Map(
    view.openToolCalls
      .filter((call) => !paused.has(call.id) && toolKind(agent, [], call.name) !== 'backend' && toolKind(agent, [], call.name) !== 'delegate')
      .map((call) => [call.id, call]),
  );
  const events: SessionEvent[] = [];
  const seen = new Set<string>();
  for (const message of input.messages) {
    if (known.has(message.id) || (message.role === 'tool' && answered.has(message.toolCallId))) continue;
    if (seen.has(message.id)) throw new Refusal('invalid_message', `Message id "${message.id}" appears twice in the request.`);
    seen.add(message.id);
    if (message.role === 'user') {
      const attachments = message.attachments?.length ? { attachments: message.attachments } : {};
      events.push({ type: 'message_added', message: { id: message.id, role: 'user', content: message.content, ...attachments } });
    } else if (message.role === 'tool') {
      const call = openClientCalls.get(message.toolCallId);
      if (!call) {
        throw new Refusal('unknown_tool_call', `Tool result for "${message.toolCallId}", which is not a tool call waiting for a client result.`, {
          toolCallId: message.toolCallId,
        });
      }
      openClientCalls.delete(call.id);
      events.push({
        type: 'message_added',
        message: { id: message.id, role: 'tool', toolCallId: call.id, toolName: call.name, content: message.content, isError: message.isError },
      });
    } else if (message.role === 'system' && input.trusted) {
      events.push({ type: 'message_added', message: { id: message.id, role: 'system', content: message.content } });
    } else {
      throw new Refusal(
        'invalid_message',
        `A client may add user messages and frontend tool results; message "${message.id}" has role "${message.role}" and is not in this thread.`,
        { messageId: message.id },
      );
    }
  }
  if (openClientCalls.size > 0) {
    const ids = [...openClientCalls.keys()];
    throw new Refusal(
      'tool_result_missing',
      `The thread is waiting for the result of frontend tool call(s) ${ids.join(', ')}: send each as a role "tool" message.`,
      { toolCallIds: ids },
    );
  }
  const patch = clientStatePatch(view.state, input.state, agent.editableState);
  if (patch.length > 0) events.push({ type: 'state_patched', patch });
  return events;
}
