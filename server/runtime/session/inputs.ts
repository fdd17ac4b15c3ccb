// The messages trusted server code gives a session — through `session(...).append` or a timer's
// `schedule` (docs/turn-control.md, "Server append", "Timers"). Pure builders with no I/O.
// `inputs.message()` and `inputs.seed()` take the AI SDK's UI-message shape and answer an array
// to spread, as the experimental-a2 seed spells them (docs/seed-names.md); `userMessage` and
// `systemNote` are the same two messages from a plain string. The other builders make the
// commands `append` carries out beside messages (server/authoring/session-command.ts): a
// decision, a retry, a stop, guidance, a change to the queue, a browser tool's result.
import type { ApprovalCommand, InputCommand, QueueCommand, RetryCommand, SteerCommand, StopCommand } from '../../authoring';
import type { ChatMessage, ToolMessage } from '../../store/messages';

/** A user message, as if the session's person had typed it. */
export function userMessage(content: string, options: { id?: string } = {}): ChatMessage {
  return { id: options.id ?? crypto.randomUUID(), role: 'user', content };
}

/** A note for the model from trusted code (e.g. "The customer's payment failed"); no client may send one. */
export function systemNote(content: string, options: { id?: string } = {}): ChatMessage {
  return { id: options.id ?? crypto.randomUUID(), role: 'system', content };
}

/** A text part, as the AI SDK's UI messages spell it. A session's messages hold text only. */
interface TextPart {
  type: 'text';
  text: string;
}

/** A message in the UI-message shape. Give it an id: the session adds an id it has once, so a redelivery is harmless. */
export interface MessageInput<Role extends 'user' | 'system'> {
  id?: string;
  role: Role;
  parts: TextPart[];
}

/** The parts' text, in order, a line apart; a part of another kind is refused (there is nowhere to keep it). */
function textOf(input: MessageInput<'user' | 'system'>): string {
  if (!Array.isArray(input.parts)) throw new TypeError('inputs: a message needs parts: [{type: "text", text}].');
  return input.parts
    .map((part) => {
      if (part?.type !== 'text' || typeof part.text !== 'string')
        throw new TypeError(`inputs: only text parts are supported, not ${JSON.stringify((part as { type?: unknown })?.type)}.`);
      return part.text;
    })
    .join('\n');
}

export const inputs = {
  /** A user message, to spread into `append(...)` or `schedule(key, when, ...)`. */
  message(input: MessageInput<'user'>): ChatMessage[] {
    if (input.role !== 'user')
      throw new TypeError(`inputs.message(): role "${String(input.role)}" is not a user message; a note for the model is inputs.seed({role: 'system', ...}).`);
    return [userMessage(textOf(input), input.id === undefined ? {} : { id: input.id })];
  },
  /**
   * A system note (trusted code only). Unlike the seed's passive `seed()`, it does not wait for
   * a later turn: the append that carries it takes a turn, on it and the messages beside it.
   */
  seed(input: MessageInput<'system'>): ChatMessage[] {
    if (input.role !== 'system')
      throw new TypeError(`inputs.seed(): only system notes are seeded here, not role "${String(input.role)}"; a user message is inputs.message().`);
    return [systemNote(textOf(input), input.id === undefined ? {} : { id: input.id })];
  },
  /** Approves or denies a pending approval, as the session's owner (docs/turn-control.md, "Server append"). */
  approval(input: Omit<ApprovalCommand, 'command'>): ApprovalCommand[] {
    if (typeof input.approvalId !== 'string' || typeof input.approved !== 'boolean')
      throw new TypeError('inputs.approval(): give {approvalId, approved: true | false} (approvalId from state.pendingApprovals).');
    return [{ command: 'approval', ...input }];
  },
  /** Answers a pending question (`requestInput`) with `value`. */
  input(input: Omit<InputCommand, 'command'>): InputCommand[] {
    if (typeof input.inputId !== 'string') throw new TypeError('inputs.input(): give {inputId, value} (inputId from state.pendingInputs).');
    return [{ command: 'input', inputId: input.inputId, value: input.value }];
  },
  /** Runs the failed turn again; a fresh `retryId` unless one is given (the same one twice is one retry). */
  retry(input: { retryId?: string } = {}): RetryCommand[] {
    return [{ command: 'retry', retryId: input.retryId ?? crypto.randomUUID() }];
  },
  /** Stops the run in progress (or `runId`, if it is the one in progress), keeping the reply up to `frontier`. */
  stop(input: { runId?: string; frontier?: string | null } = {}): StopCommand[] {
    return [{ command: 'stop', ...input }];
  },
  /** Stops exactly the run named: the lower-level stop, whose one owner is the run. */
  interrupt(input: { runId: string; frontier?: string | null }): StopCommand[] {
    if (typeof input?.runId !== 'string') throw new TypeError('inputs.interrupt(): name the run it stops ({runId}); inputs.stop() stops whichever runs.');
    return [{ command: 'stop', ...input }];
  },
  /** Guidance for the run in progress, in the UI-message shape of `message()`. */
  steer(input: MessageInput<'user'> & { runId?: string }): SteerCommand[] {
    const [message] = inputs.message({ ...(input.id === undefined ? {} : { id: input.id }), role: input.role, parts: input.parts });
    return [{ command: 'steer', id: message!.id, text: message!.content as string, ...(input.runId === undefined ? {} : { runId: input.runId }) }];
  },
  /** Changes a message waiting in the queue before it goes out. */
  queue: {
    edit: (input: { messageId: string; content: string }): QueueCommand[] => [{ command: 'queue', op: 'edit', ...input }],
    move: (input: { messageId: string; index: number }): QueueCommand[] => [{ command: 'queue', op: 'move', ...input }],
    remove: (input: { messageId: string }): QueueCommand[] => [{ command: 'queue', op: 'remove', ...input }],
    sendNow: (input: { messageId: string }): QueueCommand[] => [{ command: 'queue', op: 'sendNow', ...input }],
  },
  /**
   * The result of a call waiting on a client (a frontend tool, docs/internals/wires.md, "Frontend
   * tools"), from trusted code: checked against the open call and continuing the turn, as a
   * browser's result does. Its id is the call's, so the same result twice is one.
   */
  toolResult(input: { toolCallId: string; output: unknown; isError?: boolean }): ToolMessage[] {
    if (typeof input?.toolCallId !== 'string') throw new TypeError('inputs.toolResult(): give {toolCallId, output}.');
    const content = typeof input.output === 'string' ? input.output : JSON.stringify(input.output ?? null);
    const error = input.isError ? { isError: true } : {};
    // toolName is the open call's: the session fills it in when it accepts the result (client-input.ts).
    return [{ id: `tool-result:${input.toolCallId}`, role: 'tool', toolCallId: input.toolCallId, toolName: '', content, ...error }];
  },
};
