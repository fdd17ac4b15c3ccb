// The run as one assistant turn, the way both chat APIs show it: reasoning and text as they
// stream, then the tool calls the client must see (paused for a decision, or its own tools),
// then how the turn finished and what it cost; or all of it collected for a non-streaming
// response (docs/internals/wires.md).
import type { FoundCode } from '../../error-codes';
import type { ProviderMetadata } from '../../store/messages';
import { totalUsage, type StartedRun, type UsageTotals } from '../../runtime';

/** A tool call the client is shown: one paused for approval, or one of its own tools. */
export interface VisibleToolCall {
  id: string;
  name: string;
  /** The arguments as a JSON string. */
  arguments: string;
  input: unknown;
}

export type ChatTurnEvent =
  /** A span of reasoning (Anthropic's thinking block); it ends with what the provider said of it. */
  | { type: 'reasoning-start' }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'reasoning-end'; providerMetadata?: ProviderMetadata }
  /** A model step starts text (one text block / paragraph per step). */
  | { type: 'text-start' }
  | { type: 'text-delta'; text: string }
  | { type: 'text-end' }
  | { type: 'tool-calls'; calls: VisibleToolCall[] }
  /** `usage`: the run's model calls, summed (docs/internals/architecture.md, "Usage"). */
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'cancelled'; usage: UsageTotals }
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
      case 'reasoning-start':
        yield { type: 'reasoning-start' };
        break;
      case 'reasoning-delta':
        yield { type: 'reasoning-delta', text: part.delta };
        break;
      case 'reasoning-end':
        yield { type: 'reasoning-end', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) };
        break;
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
        const usage = totalUsage(part.usage ?? []);
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

/** A block of a non-streaming response, in the order the turn streamed: a step's text, or a span of reasoning. */
export type CollectedBlock = { type: 'text'; text: string } | { type: 'reasoning'; text: string; providerMetadata?: ProviderMetadata };

/** The whole turn, for a non-streaming response. */
export interface CollectedTurn {
  /** One text block per model step that wrote text, and every span of reasoning, in order. */
  content: CollectedBlock[];
  toolCalls: VisibleToolCall[];
  reason: 'stop' | 'tool_calls' | 'cancelled';
  usage: UsageTotals;
  error?: { code: FoundCode; message: string };
}

export async function collectChatTurn(run: StartedRun): Promise<CollectedTurn> {
  const turn: CollectedTurn = { content: [], toolCalls: [], reason: 'stop', usage: totalUsage([]) };
  /** The block deltas go to: a step's text or a span of reasoning, once it started. */
  let open: CollectedBlock | undefined;
  const start = (block: CollectedBlock) => {
    turn.content.push(block);
    open = block;
  };
  for await (const event of chatTurn(run)) {
    switch (event.type) {
      case 'reasoning-start':
        start({ type: 'reasoning', text: '' });
        break;
      case 'reasoning-delta':
        if (open?.type !== 'reasoning') start({ type: 'reasoning', text: '' });
        open!.text += event.text;
        break;
      case 'reasoning-end':
        if (open?.type === 'reasoning' && event.providerMetadata) open.providerMetadata = event.providerMetadata;
        open = undefined;
        break;
      case 'text-start':
        start({ type: 'text', text: '' });
        break;
      case 'text-delta':
        if (open?.type !== 'text') start({ type: 'text', text: '' });
        open!.text += event.text;
        break;
      case 'text-end':
        open = undefined;
        break;
      case 'tool-calls':
        turn.toolCalls = event.calls;
        break;
      case 'finish':
        turn.reason = event.reason;
        turn.usage = event.usage;
        break;
      case 'error':
        turn.error = { code: event.code, message: event.message };
        break;
    }
  }
  // A step that opened text and wrote none is no block; reasoning kept to itself (encrypted) still is one.
  turn.content = turn.content.filter((block) => block.type === 'reasoning' || block.text.length > 0);
  return turn;
}

/** The turn's text blocks, or its reasoning spans' texts. */
export function textsOf(turn: CollectedTurn, type: CollectedBlock['type']): string[] {
  return turn.content.flatMap((block) => (block.type === type && block.text ? [block.text] : []));
}
