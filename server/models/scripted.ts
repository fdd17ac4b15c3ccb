// The built-in scripted model (README, "Models"): a real AI SDK LanguageModelV4 that needs no network
// and no key. What it replies to a prompt is decided by fixed rules (scripted-reply.ts, over its
// own phrases in scripted-phrases.ts and the agent's, agent-phrases.ts); here the reply is
// rendered as the AI SDK's stream or generate result.
//
// Text streams one delta per word (leading whitespace kept, so the deltas concatenate to the
// reply). Tool-call ids are random (`call_<hex>`); everything else is a function of the prompt.
//
// Reasoning ("think about …", "think then …") streams first, as a reasoning part signed the way
// Anthropic signs thinking: its provider metadata carries `scripted.signature`, a hash of its
// text, in a delta of its own at the end; the calls made after it carry the same signature, as
// Gemini's function calls carry their thought's. Every reasoning part and every call of a
// thinking message in a prompt must come back with its signature, as Anthropic's API demands
// of thinking blocks: one without it fails the call (HTTP 400) — so a conversation that drops
// what a provider said about its output fails here too, offline.
//
// Usage is counted in words (a run of non-space characters), close enough to tokens for budgets
// and displays: the input is every word of the prompt, of which the words up to and including
// its last assistant message count as cached (what a provider's prompt cache serves of a
// conversation's earlier turns); the output is the reply's words — its text, its calls'
// arguments as JSON and its reasoning, which is also reported as reasoning tokens.
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
import type { OfflinePhrase } from '../authoring/offline-phrases';
import { agentPhrases } from './agent-phrases';
import { decideReply, type OfferedTools, type ScriptedReply, type ScriptedToolCall } from './scripted-reply';

/** `model.provider` of every scripted model: how the runtime and the UI recognise it. */
export const SCRIPTED_PROVIDER = 'scripted';

export interface ScriptedModelOptions {
  /** Reported as `model.modelId`; resolve.ts passes the agent's original model string. */
  modelId?: string;
  /** Wait this long before each stream part after the first (0: no timers at all). */
  delayMs?: number;
  /**
   * Phrases it answers to besides those of the agent whose step is running (agent-phrases.ts):
   * for a model called outside the runtime, as a test's streamText does.
   */
  phrases?: readonly OfflinePhrase[];
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

/** Usage in words (see the top of this file). */
function usageOf(prompt: LanguageModelV4Prompt, reply: Exclude<ScriptedReply, { kind: 'fail' }>): LanguageModelV4Usage {
  const input = promptWords(prompt);
  const lastAssistant = prompt.findLastIndex((message) => message.role === 'assistant');
  const cached = lastAssistant < 0 ? 0 : promptWords(prompt.slice(0, lastAssistant + 1));
  const textWords = reply.kind === 'text' ? countWords(reply.text) : 0;
  const toolWords = reply.kind === 'tool-calls' ? reply.calls.reduce((n, c) => n + countWords(JSON.stringify(c.input)), 0) : 0;
  const reasoningWords = countWords(reply.reasoning ?? '');
  return {
    inputTokens: { total: input, noCache: input - cached, cacheRead: cached, cacheWrite: 0 },
    outputTokens: { total: textWords + toolWords + reasoningWords, text: textWords, reasoning: reasoningWords },
  };
}

// ─── Signatures ─────────────────────────────────────────────────────────────────────────

/** The signature of a reasoning text: FNV-1a, 32 bits, in hex. Not cryptography: proof the part came back as it went out. */
export function reasoningSignature(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `scripted-sig-${hash.toString(16).padStart(8, '0')}`;
}

const signed = (text: string) => ({ scripted: { signature: reasoningSignature(text) } });

/** The signature a prompt part came back with, if any. */
function signatureIn(part: { providerOptions?: LanguageModelV4CallOptions['providerOptions'] }): unknown {
  return part.providerOptions?.[SCRIPTED_PROVIDER]?.signature;
}

/** Every reasoning part of the prompt, and every call of a message that reasoned, with the signature it went out with; else why not. */
function unsignedReasoning(prompt: LanguageModelV4Prompt): string | undefined {
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    const reasoning = message.content.flatMap((part) => (part.type === 'reasoning' ? [part] : []));
    for (const part of reasoning) {
      if (signatureIn(part) !== reasoningSignature(part.text)) return 'a reasoning part came back without the signature it was given';
    }
    const thought = reasoning.at(-1);
    if (!thought) continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && signatureIn(part) !== reasoningSignature(thought.text)) {
        return `tool call ${part.toolCallId} came back without the signature of the reasoning before it`;
      }
    }
  }
  return undefined;
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

/** A call made after thinking carries the thinking's signature. */
const callMetadata = (reply: ScriptedReply) => (reply.kind !== 'fail' && reply.reasoning ? { providerMetadata: signed(reply.reasoning) } : {});

const planCalls = (calls: ScriptedToolCall[]): PlannedCall[] =>
  calls.map((call) => ({ ...call, toolCallId: `call_${randomHex().slice(0, 24)}`, inputJson: JSON.stringify(call.input) }));

function scriptedError(reason: string, statusCode = 500): APICallError {
  return new APICallError({
    message: `Scripted model error: ${reason}`,
    url: 'scripted://model',
    requestBodyValues: {},
    statusCode,
    isRetryable: false,
  });
}

function* streamParts(reply: Exclude<ScriptedReply, { kind: 'fail' }>, prompt: LanguageModelV4Prompt, modelId: string): Generator<LanguageModelV4StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: `scripted-${randomHex()}`, modelId, timestamp: new Date() };
  if (reply.reasoning) {
    const id = 'reasoning-1';
    yield { type: 'reasoning-start', id };
    for (const delta of wordTokens(reply.reasoning)) yield { type: 'reasoning-delta', id, delta };
    // As Anthropic sends a thinking block's signature: last, in a delta of its own.
    yield { type: 'reasoning-delta', id, delta: '', providerMetadata: signed(reply.reasoning) };
    yield { type: 'reasoning-end', id };
  }
  if (reply.kind === 'text') {
    const id = 'text-1';
    yield { type: 'text-start', id };
    for (const delta of wordTokens(reply.text)) yield { type: 'text-delta', id, delta };
    yield { type: 'text-end', id };
    if (reply.failAfterText) {
      yield { type: 'error', error: scriptedError(`failed after ${countWords(reply.text)} tokens, as asked ("fail after N tokens")`) };
    }
  } else {
    for (const call of planCalls(reply.calls)) {
      yield { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName };
      yield { type: 'tool-input-delta', id: call.toolCallId, delta: call.inputJson };
      yield { type: 'tool-input-end', id: call.toolCallId };
      yield { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.inputJson, ...callMetadata(reply) };
    }
  }
  yield { type: 'finish', finishReason: finishReasonOf(reply), usage: usageOf(prompt, reply) };
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
    const unsigned = unsignedReasoning(call.prompt);
    if (unsigned) throw scriptedError(`${unsigned} (a provider refuses such a prompt, as Anthropic's API does an unsigned thinking block)`, 400);
    const phrases = [...(options.phrases ?? []), ...agentPhrases()];
    const reply = decideReply(call.prompt, offeredTools(call), { attempt: attemptOf(call), modelId, phrases });
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
      const content: LanguageModelV4Content[] = [
        ...(reply.reasoning ? [{ type: 'reasoning' as const, text: reply.reasoning, providerMetadata: signed(reply.reasoning) }] : []),
        ...(reply.kind === 'text'
          ? [{ type: 'text' as const, text: reply.text }]
          : planCalls(reply.calls).map((c) => ({
              type: 'tool-call' as const,
              toolCallId: c.toolCallId,
              toolName: c.toolName,
              input: c.inputJson,
              ...callMetadata(reply),
            }))),
      ];
      return {
        content,
        finishReason: finishReasonOf(reply),
        usage: usageOf(call.prompt, reply),
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
