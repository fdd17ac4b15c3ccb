// The built-in scripted model (README, "Models"): a real AI SDK LanguageModelV4 that needs no network
// and no key. What it replies to a prompt is decided by fixed rules (scripted-reply.ts, over the
// phrase table in scripted-phrases.ts); here the reply is rendered as the AI SDK's stream or
// generate result.
//
// Text streams one delta per word (leading whitespace kept, so the deltas concatenate to the
// reply). Tool-call ids are random (`call_<hex>`); everything else is a function of the prompt.
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4FinishReason,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
  type LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { decideReply, type OfferedTools, type ScriptedReply, type ScriptedToolCall } from './scripted-reply';

/** `model.provider` of every scripted model: how the runtime and the UI recognise it. */
export const SCRIPTED_PROVIDER = 'scripted';

export interface ScriptedModelOptions {
  /** Reported as `model.modelId`; resolve.ts passes the agent's original model string. */
  modelId?: string;
  /** Wait this long before each stream part after the first (0: no timers at all). */
  delayMs?: number;
}

// ─── Rendering the reply ────────────────────────────────────────────────────────────────

/** Words with their leading whitespace; concatenated they give back the text exactly. */
function wordTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const countWords = (text: string) => text.match(/\S+/g)?.length ?? 0;

function promptWords(prompt: LanguageModelV4Prompt): number {
  let words = 0;
  for (const message of prompt) {
    if (message.role === 'system') {
      words += countWords(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') words += countWords(part.text);
      else if (part.type === 'tool-call') words += countWords(JSON.stringify(part.input ?? null));
      else if (part.type === 'tool-result') words += countWords(JSON.stringify(part.output));
    }
  }
  return words;
}

/** Usage in words: close enough to tokens for budgets and displays. */
function usageOf(prompt: LanguageModelV4Prompt, textWords: number, toolWords: number): LanguageModelV4Usage {
  const input = promptWords(prompt);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: textWords + toolWords, text: textWords, reasoning: 0 },
  };
}

function finishReasonOf(reply: ScriptedReply): LanguageModelV4FinishReason {
  if (reply.kind === 'tool-calls') return { unified: 'tool-calls', raw: 'tool_calls' };
  if (reply.kind === 'fail' || reply.failAfterText) return { unified: 'error', raw: 'error' };
  return { unified: 'stop', raw: 'stop' };
}

const randomHex = () => globalThis.crypto.randomUUID().replace(/-/g, '');

interface PlannedCall extends ScriptedToolCall {
  toolCallId: string;
  inputJson: string;
}

const planCalls = (calls: ScriptedToolCall[]): PlannedCall[] =>
  calls.map((call) => ({ ...call, toolCallId: `call_${randomHex().slice(0, 24)}`, inputJson: JSON.stringify(call.input) }));

function scriptedError(reason: string): APICallError {
  return new APICallError({
    message: `Scripted model error: ${reason}`,
    url: 'scripted://model',
    requestBodyValues: {},
    statusCode: 500,
    isRetryable: false,
  });
}

function* streamParts(reply: Exclude<ScriptedReply, { kind: 'fail' }>, prompt: LanguageModelV4Prompt, modelId: string): Generator<LanguageModelV4StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: `scripted-${randomHex()}`, modelId, timestamp: new Date() };
  let textWords = 0;
  let toolWords = 0;
  if (reply.kind === 'text') {
    const id = 'text-1';
    yield { type: 'text-start', id };
    for (const delta of wordTokens(reply.text)) yield { type: 'text-delta', id, delta };
    yield { type: 'text-end', id };
    textWords = countWords(reply.text);
    if (reply.failAfterText) {
      yield { type: 'error', error: scriptedError(`failed after ${textWords} tokens, as asked ("fail after N tokens")`) };
    }
  } else {
    for (const call of planCalls(reply.calls)) {
      yield { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName };
      yield { type: 'tool-input-delta', id: call.toolCallId, delta: call.inputJson };
      yield { type: 'tool-input-end', id: call.toolCallId };
      yield { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.inputJson };
      toolWords += countWords(call.inputJson);
    }
  }
  yield { type: 'finish', finishReason: finishReasonOf(reply), usage: usageOf(prompt, textWords, toolWords) };
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/** Resolves after ms, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A pull stream over the parts: it errors as soon as the signal aborts, even between pulls. */
function toReadableStream(
  parts: Iterator<LanguageModelV4StreamPart>,
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let first = true;
  let done = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    done = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        if (done) return;
        detach();
        controller.error(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      if (done) return;
      if (!first && delayMs > 0) {
        try {
          await sleep(delayMs, signal);
        } catch {
          return; // the abort listener has already errored the stream
        }
      }
      first = false;
      if (done) return;
      const next = parts.next();
      if (next.done) {
        detach();
        controller.close();
      } else {
        controller.enqueue(next.value);
      }
    },
    cancel() {
      detach();
    },
  });
}

// ─── The model ──────────────────────────────────────────────────────────────────────────

/** Which attempt at the turn this call is: the runtime says so for a retry (docs/turn-control.md). */
function attemptOf(options: LanguageModelV4CallOptions): number {
  const attempt = (options.providerOptions?.stackbone as { attempt?: unknown } | undefined)?.attempt;
  return typeof attempt === 'number' ? attempt : 1;
}

/** Function tools only: provider tools run at the provider, which this model has none of. */
function offeredTools(options: LanguageModelV4CallOptions): OfferedTools {
  if (options.toolChoice?.type === 'none') return new Map();
  return new Map((options.tools ?? []).flatMap((t) => (t.type === 'function' ? [[t.name, t.inputSchema] as const] : [])));
}

export function createScriptedModel(options: ScriptedModelOptions = {}): LanguageModelV4 {
  const modelId = options.modelId ?? 'scripted';
  const delayMs = Math.max(0, options.delayMs ?? 0);
  const decide = (call: LanguageModelV4CallOptions) => {
    call.abortSignal?.throwIfAborted();
    const reply = decideReply(call.prompt, offeredTools(call), attemptOf(call));
    if (reply.kind === 'fail') throw scriptedError('the user asked for a failure ("fail")');
    return reply;
  };

  return {
    specificationVersion: 'v4',
    provider: SCRIPTED_PROVIDER,
    modelId,
    supportedUrls: {},

    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const reply = decide(call);
      if (reply.kind === 'text' && reply.failAfterText) throw scriptedError('failed mid-reply, as asked ("fail after N tokens")');
      const content: LanguageModelV4Content[] =
        reply.kind === 'text'
          ? [{ type: 'text', text: reply.text }]
          : planCalls(reply.calls).map((c) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: c.inputJson }));
      const textWords = reply.kind === 'text' ? countWords(reply.text) : 0;
      const toolWords = reply.kind === 'tool-calls' ? reply.calls.reduce((n, c) => n + countWords(JSON.stringify(c.input)), 0) : 0;
      return {
        content,
        finishReason: finishReasonOf(reply),
        usage: usageOf(call.prompt, textWords, toolWords),
        response: { id: `scripted-${randomHex()}`, modelId, timestamp: new Date() },
        warnings: [],
      };
    },

    async doStream(call): Promise<LanguageModelV4StreamResult> {
      const reply = decide(call);
      const pace = reply.kind === 'text' && reply.paceMs ? reply.paceMs : delayMs;
      return { stream: toReadableStream(streamParts(reply, call.prompt, modelId), pace, call.abortSignal) };
    },
  };
}
