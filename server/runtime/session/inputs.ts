// The messages trusted server code gives a session — through `session(...).append` or a timer's
// `schedule` (docs/turn-control.md, "Server append", "Timers"). Pure builders with no I/O.
// `inputs.message()` and `inputs.seed()` take the AI SDK's UI-message shape and answer an array
// to spread, as the experimental-a2 seed spells them (docs/seed-names.md); `userMessage` and
// `systemNote` are the same two messages from a plain string.
import type { ChatMessage } from '../../store/messages';

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
};
