// The run as one assistant turn, the way both chat APIs show it: text as it streams, then the
// tool calls the client must see (paused for a decision, or its own tools), then how the turn
// finished; or all of it collected for a non-streaming response (docs/wires.md).
import type { FoundCode } from '../../error-codes';
import type { RunUsage, StartedRun } from '../../runtime';

/** A tool call the client is shown: one paused for approval, or one of its own tools. */
export interface VisibleToolCall {
  id: string;
  name: string;
  /** The arguments as a JSON string. */
  arguments: string;
  input: unknown;
}

export type ChatTurnEvent =
  /** A model step starts text (one text block / paragraph per step). */
  | { type: 'text-start' }
  | { type: 'text-delta'; text: string }
  | { type: 'text-end' }
  | { type: 'tool-calls'; calls: VisibleToolCall[] }
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'cancelled'; usage: RunUsage }
  | { type: 'error'; code: FoundCode; message: string };

/**
 * The run's parts as one assistant turn. Text streams live. Tool calls are held until the
 * run ends, because only then is it known which ones the client must see: calls paused for
 * a human decision and client tool calls. Server tools that ran freely stay internal; their
 * effect is in the text that follows.
 */
export async function* chatTurn(run: StartedRun): AsyncGenerator<ChatTurnEvent> {
  const calls = new Map<string, { name: string; args: string }>();
  const answered = new Set<string>();
  for await (const part of run.parts) {
    switch (part.type) {
      case 'text-start':
        yield { type: 'text-start' };
        break;
      case 'text-delta':
        yield { type: 'text-delta', text: part.delta };
        break;
      case 'text-end':
        yield { type: 'text-end' };
        break;
      case 'tool-call-start':
        calls.set(part.toolCallId, { name: part.toolName, args: '' });
        break;
      case 'tool-call-delta': {
        const call = calls.get(part.toolCallId);
        if (call) call.args += part.delta;
        break;
      }
      case 'tool-result':
        answered.add(part.toolCallId);
        break;
      case 'run-error':
        yield { type: 'error', code: part.code, message: part.message };
        return;
      case 'run-finished': {
        const usage = run.usage?.() ?? { inputTokens: 0, outputTokens: 0 };
        const { outcome } = part;
        if (outcome.type === 'cancelled') {
          yield { type: 'finish', reason: 'cancelled', usage };
          return;
        }
        const visible: VisibleToolCall[] = [];
        const show = (id: string, name: string, args: string | undefined, input: unknown) => {
          if (visible.some((call) => call.id === id)) return;
          const json = args?.trim() ? args : JSON.stringify(input ?? {});
          visible.push({ id, name, arguments: json, input: parseArguments(json, input) });
        };
        if (outcome.type === 'interrupt') {
          // Paused calls, and any client tool call the same step made (it is still open).
          for (const [id, call] of calls) if (!answered.has(id)) show(id, call.name, call.args, undefined);
          for (const record of part.interrupts ?? []) show(record.toolCallId, record.toolName, calls.get(record.toolCallId)?.args, record.input);
        } else {
          for (const id of outcome.pendingToolCallIds ?? []) {
            const call = calls.get(id);
            if (call) show(id, call.name, call.args, undefined);
          }
        }
        if (visible.length) yield { type: 'tool-calls', calls: visible };
        yield { type: 'finish', reason: visible.length ? 'tool_calls' : 'stop', usage };
        return;
      }
      default:
        break;
    }
  }
}

function parseArguments(json: string, fallback: unknown): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return fallback ?? {};
  }
}

/** The whole turn, for a non-streaming response. */
export interface CollectedTurn {
  /** One entry per model step that wrote text. */
  texts: string[];
  toolCalls: VisibleToolCall[];
  reason: 'stop' | 'tool_calls' | 'cancelled';
  usage: RunUsage;
  error?: { code: FoundCode; message: string };
}

export async function collectChatTurn(run: StartedRun): Promise<CollectedTurn> {
  const turn: CollectedTurn = { texts: [], toolCalls: [], reason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
  for await (const event of chatTurn(run)) {
    if (event.type === 'text-start') turn.texts.push('');
    else if (event.type === 'text-delta') {
      if (turn.texts.length === 0) turn.texts.push('');
      turn.texts[turn.texts.length - 1] += event.text;
    } else if (event.type === 'tool-calls') turn.toolCalls = event.calls;
    else if (event.type === 'finish') {
      turn.reason = event.reason;
      turn.usage = event.usage;
    } else if (event.type === 'error') turn.error = { code: event.code, message: event.message };
  }
  turn.texts = turn.texts.filter((text) => text.length > 0);
  return turn;
}
