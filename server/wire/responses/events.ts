// A run as Responses stream events (docs/internals/wires.md, "The Responses wire"). A pure function of
// the run's parts in order: the log replays the same parts under the same cursors on any
// server, so the same events come out with the same `sequence_number`s, live or replayed,
// and a client resumes from any number with no gap and no duplicate. The response object
// a poll answers is the translator's snapshot after the parts the log holds.
import type { FoundCode } from '../../error-codes';
import type { InterruptRecord } from '../../store/pauses';
import { totalUsage, type RunPart, type StreamPart, type UsageTotals } from '../../runtime';
import { functionCallItem, interruptItem, type OutputItem } from './items';

export interface ResponseMeta {
  id: string;
  /** The agent: the model the client named, and the approvals' server_label. */
  model: string;
  /** Seconds, from when the log recorded the run's start. */
  createdAt: number;
  background: boolean;
  store: boolean;
  previousResponseId: string | null;
}

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export type ResponseEvent = { type: string; sequence_number: number } & Record<string, unknown>;

export class ResponseTranslator {
  private sequence = 0;
  private readonly output: OutputItem[] = [];
  private status: ResponseStatus = 'in_progress';
  private error: { code: FoundCode; message: string } | null = null;
  private usage: UsageTotals | null = null;
  /** The item deltas go to (a step's text, a span of reasoning), while it is open. */
  private open?: { index: number; text: string };
  private readonly calls = new Map<string, { name: string; args: string }>();
  private readonly answered = new Set<string>();
  private started = false;

  constructor(private readonly meta: ResponseMeta) {}

  /** The events a part makes (the first part also opens the response). */
  push(part: RunPart): ResponseEvent[] {
    const events: ResponseEvent[] = [];
    const emit = (type: string, fields: Record<string, unknown>) => events.push({ type, sequence_number: this.sequence++, ...fields });
    if (!this.started) {
      this.started = true;
      emit('response.created', { response: this.response() });
      emit('response.in_progress', { response: this.response() });
    }
    switch (part.type) {
      case 'reasoning-start':
      case 'text-start': {
        const index = this.output.length;
        const id = `${part.type === 'text-start' ? 'msg' : 'rs'}_${this.meta.id.slice(-36)}_${index}`;
        const item: OutputItem =
          part.type === 'text-start'
            ? { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] }
            : { id, type: 'reasoning', summary: [], content: [] };
        this.output.push(item);
        this.open = { index, text: '' };
        emit('response.output_item.added', { output_index: index, item: structuredClone(item) });
        emit('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: this.emptyPart(item) });
        break;
      }
      case 'reasoning-delta':
      case 'text-delta': {
        if (!this.open) break;
        this.open.text += part.delta;
        const kind = part.type === 'text-delta' ? 'response.output_text.delta' : 'response.reasoning_text.delta';
        emit(kind, {
          item_id: this.output[this.open.index]!.id,
          output_index: this.open.index,
          content_index: 0,
          delta: part.delta,
          ...this.logprobs(part.type),
        });
        break;
      }
      case 'reasoning-end':
      case 'text-end': {
        if (!this.open) break;
        const { index, text } = this.open;
        this.open = undefined;
        const item = this.output[index]!;
        const id = item.id;
        if (item.type === 'message') {
          const contentPart = { type: 'output_text' as const, text, annotations: [] as [], logprobs: [] as [] };
          item.content = [contentPart];
          item.status = 'completed';
          emit('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text, logprobs: [] });
          emit('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part: structuredClone(contentPart) });
        } else if (item.type === 'reasoning') {
          item.content = [{ type: 'reasoning_text', text }];
          emit('response.reasoning_text.done', { item_id: id, output_index: index, content_index: 0, text });
          emit('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part: { type: 'reasoning_text', text } });
        }
        emit('response.output_item.done', { output_index: index, item: structuredClone(item) });
        break;
      }
      case 'tool-call-start':
        this.calls.set(part.toolCallId, { name: part.toolName, args: '' });
        break;
      case 'tool-call-delta': {
        const call = this.calls.get(part.toolCallId);
        if (call) call.args += part.delta;
        break;
      }
      case 'tool-result':
        this.answered.add(part.toolCallId);
        break;
      case 'run-error':
        this.status = 'failed';
        this.error = { code: part.code, message: part.message };
        this.usage = totalUsage(part.usage ?? []);
        emit('response.failed', { response: this.response() });
        break;
      case 'run-finished': {
        this.usage = totalUsage(part.usage ?? []);
        if (part.outcome.type === 'cancelled') {
          this.status = 'cancelled';
          // The Responses API has no event of its own for a cancelled response: it ends the stream as incomplete, status cancelled.
          emit('response.incomplete', { response: this.response() });
          break;
        }
        for (const item of this.visibleCalls(part.outcome, part.interrupts ?? [])) {
          const index = this.output.length;
          this.output.push(item);
          if (item.type === 'function_call') {
            emit('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
            emit('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
            emit('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
          } else {
            emit('response.output_item.added', { output_index: index, item: structuredClone(item) });
          }
          emit('response.output_item.done', { output_index: index, item: structuredClone(item) });
        }
        this.status = 'completed';
        emit('response.completed', { response: this.response() });
        break;
      }
      default:
        break;
    }
    return events;
  }

  /** How the run failed, once it has. */
  get failure(): { code: FoundCode; message: string } | null {
    return this.error;
  }

  /** Has the run ended (the last event was sent)? */
  get ended(): boolean {
    return this.status !== 'in_progress' && this.status !== 'queued';
  }

  /**
   * The calls the client must act on, at the end of the run (as the chat wires show them,
   * docs/internals/wires.md): a pause for a person, or a call of the client's own tools. Server tools
   * that ran freely stay internal; their effect is in the text.
   */
  private visibleCalls(outcome: Extract<RunPart, { type: 'run-finished' }>['outcome'], interrupts: InterruptRecord[]): OutputItem[] {
    const gated = new Set(interrupts.map((record) => record.toolCallId));
    const open =
      outcome.type === 'interrupt'
        ? [...this.calls.keys()].filter((id) => !this.answered.has(id) && !gated.has(id))
        : outcome.type === 'success'
          ? (outcome.pendingToolCallIds ?? [])
          : [];
    const items: OutputItem[] = [];
    for (const id of open) {
      const call = this.calls.get(id);
      if (call) items.push(functionCallItem(id, call.name, call.args.trim() ? call.args : '{}'));
    }
    for (const record of interrupts) items.push(interruptItem(record, this.calls.get(record.toolCallId)?.args, this.meta.model));
    return items;
  }

  private emptyPart(item: OutputItem) {
    return item.type === 'message' ? { type: 'output_text', text: '', annotations: [], logprobs: [] } : { type: 'reasoning_text', text: '' };
  }

  private logprobs(type: 'text-delta' | 'reasoning-delta') {
    return type === 'text-delta' ? { logprobs: [] } : {};
  }

  /** The response as it stands: what a poll answers and each lifecycle event carries. */
  response(status: ResponseStatus = this.status) {
    const { meta } = this;
    return {
      id: meta.id,
      object: 'response',
      created_at: meta.createdAt,
      status,
      background: meta.background,
      error: this.error,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: meta.model,
      output: this.output.filter((item) => status !== 'in_progress' || !this.isOpen(item)).map((item) => structuredClone(item)),
      parallel_tool_calls: true,
      previous_response_id: meta.previousResponseId,
      store: meta.store,
      temperature: null,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      truncation: 'disabled',
      usage: this.usage ? usageOf(this.usage) : null,
      metadata: {},
    };
  }

  private isOpen(item: OutputItem): boolean {
    return this.open !== undefined && this.output[this.open.index] === item;
  }
}

/** Responses usage: cached tokens are part of the input's, reasoning tokens part of the output's, as in the log. */
function usageOf(usage: UsageTotals) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The run's events after sequence number `after` (-1: all), until the run ends. Parts outside the log (no cursor) are left out: no replay has them. */
export async function* responseEvents(parts: AsyncIterable<StreamPart>, translator: ResponseTranslator, after = -1): AsyncGenerator<ResponseEvent> {
  for await (const entry of parts) {
    if (entry.cursor === undefined) continue;
    for (const event of translator.push(entry.part)) if (event.sequence_number > after) yield event;
    if (translator.ended) return;
  }
}

/** An event on the wire: its type as the SSE event name, as OpenAI sends it. */
export function encodeResponseEvent(event: ResponseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
