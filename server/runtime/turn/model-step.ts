// One model call on a conversation, turned into the parts a client sees as they stream:
// reasoning, text and tool calls, each call opened before its arguments and closed once
// complete; what the provider said about each part (its metadata), the sources it cited and
// what the call cost are kept for the log (docs/internals/architecture.md, "Reasoning and provider
// metadata", "Usage"). AI SDK
// `streamText` runs one step with tools that have no `execute` (the runtime, not the SDK, runs
// them). The runner decides what the step becomes in the log (docs/internals/architecture.md, "The step loop").
// A call that fails in a way a Retry may fix, before anything streamed, goes to the agent's next
// fallback model; each call has the agent's stepTimeout (docs/models.md, "Fallback models", "Timeouts").
// With telemetry on, each provider call is a `chat` span under the run's (docs/observability.md).
import { randomUUID } from 'node:crypto';
import { streamText, wrapLanguageModel, type LanguageModel, type LanguageModelUsage } from 'ai';
import type { DeepAgent, InstructionsContext } from '../../authoring';
import type { ModelLabel, StreamedPart, TokenUsage } from '../../store/events';
import type { ChatMessage, ProviderMetadata, ReasoningPart, SourcePart, ToolCall } from '../../store/messages';
import { loadAttachmentBytes } from '../../attachments';
import { runWithAgentPhrases } from '../../models/agent-phrases';
import { modelMode, resolveModel } from '../../models/resolve';
import { logFailure, modelFailure, StepTimeoutError } from '../errors';
import { stepTimeoutMs } from './step-timeout';
import { toModelMessages } from './model-messages';
import { modelTools, type ClientTool } from '../tools';
import { modelCallTelemetry } from '../../telemetry';

export interface ModelStep {
  messageId: string;
  text: string;
  /** What the provider said about the text (the last word of its text parts). */
  textMetadata?: ProviderMetadata;
  /** In the order they streamed; a part cut short keeps what streamed of it. */
  reasoning: ReasoningPart[];
  sources: SourcePart[];
  /** The calls the model completed; a call whose arguments were still streaming is not one. */
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: TokenUsage;
  model: ModelLabel;
  /** The model call failed (or was aborted) with this; what streamed before it is above. */
  failure?: unknown;
}

/** One model step for the agent; a scripted model answers to the agent's own phrases (server/models/agent-phrases.ts). */
export function streamModelStep(options: StepOptions): Promise<ModelStep> {
  return runWithAgentPhrases(options.agent.offline.phrases, () => stepOn(options));
}

type StepOptions = Parameters<typeof stepOn>[0];

async function stepOn(options: {
  agent: DeepAgent;
  /** The model to call: the turn's choice on the root thread (docs/models.md, "Choosing a model"); the agent's fallbacks follow it. */
  model: string | LanguageModel;
  messages: ChatMessage[];
  clientTools: ClientTool[];
  signal: AbortSignal;
  /** Which attempt at the turn: a retry tells the model (providers ignore it; the scripted model reads it). */
  attempt: number;
  /**
   * Tool-call ids the session already used. A call id is the key every interrupt, decision and
   * result of the call is bound to, so it must never repeat within a session; a provider that
   * reuses ids (`call_0` every turn) gets a server-issued one instead.
   */
  usedCallIds: ReadonlySet<string>;
  /** What the agent's instructions read when they are a function (define.ts). */
  instructionsContext: InstructionsContext;
  /** The model is called only once this has resolved (the turn's first append: turn-runner.ts, startWhileAppending); the step is prepared meanwhile. */
  before?: Promise<void>;
  emit: (part: StreamedPart) => void;
}): Promise<ModelStep> {
  const { agent } = options;
  const candidates = modelCandidates(agent, options.model);
  const step: ModelStep = {
    messageId: randomUUID(),
    text: '',
    reasoning: [],
    sources: [],
    toolCalls: [],
    finishReason: 'stop',
    model: candidates[0]!.label,
  };
  const { messageId } = step;
  // What reached the client: once anything has, no other model may take the step over (it would say it twice).
  let emitted = 0;
  const emit = (part: StreamedPart) => {
    emitted++;
    options.emit(part);
  };
  // The provider's reasoning part id (not unique beyond its response) → the part as the log keeps it.
  const openReasoning = new Map<string, ReasoningPart>();
  const endReasoning = (providerId: string) => {
    const part = openReasoning.get(providerId);
    if (!part) return;
    openReasoning.delete(providerId);
    emit({ type: 'reasoning-end', messageId: part.id, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) });
  };
  const openCalls = new Set<string>();
  // The provider's id → the id the log uses; the ids this step gave out.
  const callIds = new Map<string, string>();
  const given = new Set<string>();
  const callIdOf = (providerId: string) => {
    let id = callIds.get(providerId);
    if (!id) {
      id = options.usedCallIds.has(providerId) || given.has(providerId) ? `call_${randomUUID()}` : providerId;
      callIds.set(providerId, id);
      given.add(id);
    }
    return id;
  };
  let textOpen = false;
  const closeText = () => {
    if (textOpen) emit({ type: 'text-end', messageId });
    textOpen = false;
  };
  // Outside the model call's failures: instructions that throw are the agent's fault, not the provider's.
  const instructions = await instructionsFor(agent, options.instructionsContext);
  // The bytes of the files this step sends, within its budget, read before the pure translation (docs/models.md, "Attachments").
  const files = await loadAttachmentBytes(options.messages);
  // The same conversation and tools for every model the step may try.
  const messages = toModelMessages(options.messages, files);
  const tools = modelTools(agent, options.clientTools);
  const timeoutMs = stepTimeoutMs(agent);
  for (const [index, candidate] of candidates.entries()) {
    // Nothing reached the client from the models before this one; what they said unseen (a source, metadata) goes with them.
    Object.assign(step, { model: candidate.label, failure: undefined, sources: [], textMetadata: undefined, usage: undefined, finishReason: 'stop' });
    // Each model gets the whole budget; the timer is the step's own, so a timeout is never read as the user's stop.
    const timeout = new AbortController();
    const timer = Number.isFinite(timeoutMs) && timeoutMs < 2 ** 31 ? setTimeout(() => timeout.abort(new StepTimeoutError(timeoutMs)), timeoutMs) : undefined;
    const telemetry = modelCallTelemetry(agent.name);
    const providerOptions = {
      ...(options.attempt > 1 ? { stackbone: { attempt: options.attempt } } : {}),
      // The gateway tries its own fallbacks (docs/models.md, "Fallback models").
      ...(candidate.gatewayModels?.length ? { gateway: { models: candidate.gatewayModels } } : {}),
    };
    try {
      const result = streamText({
        model: options.before ? calledAfter(candidate.model, options.before) : candidate.model,
        instructions,
        messages,
        // The log may hold system messages from a client's history; they stay where they were.
        allowSystemInMessages: true,
        tools,
        abortSignal: AbortSignal.any([options.signal, timeout.signal]),
        // A failed call is tried again before the step fails (after the provider's retry-after).
        maxRetries: agent.maxRetries,
        ...(Object.keys(providerOptions).length ? { providerOptions } : {}),
        // Errors arrive as stream parts and become run_failed; the SDK need not log them too.
        onError: () => undefined,
        ...(telemetry ? { telemetry: telemetry.options } : {}),
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case 'reasoning-start': {
            closeText();
            const reasoning: ReasoningPart = { id: randomUUID(), text: '', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) };
            openReasoning.set(part.id, reasoning);
            step.reasoning.push(reasoning);
            emit({ type: 'reasoning-start', messageId: reasoning.id });
            break;
          }
          case 'reasoning-delta': {
            const reasoning = openReasoning.get(part.id);
            if (!reasoning) break;
            // The last word wins, as in the AI SDK's own step content: Anthropic's signature comes in a delta of its own.
            if (part.providerMetadata) reasoning.providerMetadata = part.providerMetadata;
            if (!part.text) break;
            reasoning.text += part.text;
            emit({ type: 'reasoning-delta', messageId: reasoning.id, delta: part.text });
            break;
          }
          case 'reasoning-end': {
            const reasoning = openReasoning.get(part.id);
            if (reasoning && part.providerMetadata) reasoning.providerMetadata = part.providerMetadata;
            endReasoning(part.id);
            break;
          }
          case 'source':
            if (part.sourceType === 'url') {
              step.sources.push({
                id: part.id,
                url: part.url,
                ...(part.title ? { title: part.title } : {}),
                ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
              });
            }
            break;
          case 'text-start':
          case 'text-end':
            if (part.providerMetadata) step.textMetadata = part.providerMetadata;
            break;
          case 'text-delta':
            if (part.providerMetadata) step.textMetadata = part.providerMetadata;
            if (!part.text) break;
            if (!textOpen) emit({ type: 'text-start', messageId });
            textOpen = true;
            step.text += part.text;
            emit({ type: 'text-delta', messageId, delta: part.text });
            break;
          case 'tool-input-start': {
            closeText();
            const id = callIdOf(part.id);
            openCalls.add(id);
            emit({ type: 'tool-call-start', toolCallId: id, toolName: part.toolName, parentMessageId: messageId });
            break;
          }
          case 'tool-input-delta': {
            const id = callIdOf(part.id);
            if (openCalls.has(id)) emit({ type: 'tool-call-delta', toolCallId: id, delta: part.delta });
            break;
          }
          case 'tool-call': {
            closeText();
            const id = callIdOf(part.toolCallId);
            if (!openCalls.has(id)) {
              emit({ type: 'tool-call-start', toolCallId: id, toolName: part.toolName, parentMessageId: messageId });
              emit({ type: 'tool-call-delta', toolCallId: id, delta: JSON.stringify(part.input ?? {}) });
            }
            openCalls.delete(id);
            emit({ type: 'tool-call-end', toolCallId: id });
            step.toolCalls.push({
              id,
              name: part.toolName,
              input: part.input ?? {},
              ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
            });
            break;
          }
          case 'finish-step':
            // With fallbacks the gateway says which of its models answered.
            if (candidate.gatewayModels?.length && part.response.modelId) step.model = { provider: candidate.label.provider, id: part.response.modelId };
            step.finishReason = part.finishReason;
            step.usage = tokenUsage(part.usage);
            break;
          case 'error':
            throw part.error;
          default:
            break;
        }
      }
    } catch (error) {
      step.failure = error;
    } finally {
      clearTimeout(timer);
      telemetry?.done(step.failure);
    }
    // The SDK ends an aborted stream quietly: a timeout is a failure, a stop is the runner's to see.
    if (timeout.signal.aborted && !options.signal.aborted) step.failure = timeout.signal.reason;
    if (step.failure === undefined || options.signal.aborted || emitted > 0 || index === candidates.length - 1) break;
    if (!modelFailure(step.failure).retryable) break;
    // What the provider said goes to the server's log; the turn goes on with the next model.
    logFailure(`${nameOf(candidate.label)} failed; trying ${nameOf(candidates[index + 1]!.label)}`, step.failure);
  }
  for (const id of [...openReasoning.keys()]) endReasoning(id);
  closeText();
  for (const id of openCalls) emit({ type: 'tool-call-end', toolCallId: id });
  return step;
}

/** One model the step may call, and the fallbacks the AI Gateway tries behind it. */
interface Candidate {
  model: Exclude<LanguageModel, string>;
  label: ModelLabel;
  gatewayModels?: string[];
}

/**
 * The agent's model, then its fallbacks, in order (docs/models.md, "Fallback models"). The model
 * strings right after one the AI Gateway serves, and served by it too, go in its own fallback
 * list rather than in this loop.
 */
export function modelCandidates(agent: DeepAgent, model: string | LanguageModel = agent.model): Candidate[] {
  // The chosen model first, then the agent's fallbacks that are not it.
  const models = [model, ...agent.fallbackModels.filter((fallback) => fallback !== model)];
  const candidates: Candidate[] = [];
  for (let index = 0; index < models.length; index++) {
    const resolved = resolveModel(models[index]!);
    const candidate: Candidate = { model: resolved.model, label: { provider: resolved.provider, id: resolved.modelId } };
    if (resolved.provider === 'gateway' && typeof models[index] === 'string') {
      const gatewayModels: string[] = [];
      for (let next = models[index + 1]; typeof next === 'string' && modelMode(next) === 'gateway'; next = models[index + 1]) {
        gatewayModels.push(next);
        index++;
      }
      if (gatewayModels.length) candidate.gatewayModels = gatewayModels;
    }
    candidates.push(candidate);
  }
  return candidates;
}

const nameOf = (label: ModelLabel) => `the model ${label.provider}/${label.id}`;

/** The AI SDK's usage as the log keeps it: the counts the provider reported, and only those. */
export function tokenUsage(usage: LanguageModelUsage): TokenUsage {
  const counts: TokenUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => Number.isFinite(count))) as TokenUsage;
}

/** The agent's instructions for this step: dynamic ones are worked out now, from the state as it is. */
async function instructionsFor(agent: DeepAgent, context: InstructionsContext): Promise<string> {
  if (typeof agent.instructions === 'string') return agent.instructions;
  let instructions: unknown;
  try {
    instructions = await agent.instructions(context);
  } catch (error) {
    throw new Error(`Agent "${agent.name}": its instructions function threw.`, { cause: error });
  }
  if (typeof instructions !== 'string') throw new Error(`Agent "${agent.name}": its instructions function answered ${typeof instructions}, not a string.`);
  return instructions;
}

/** The model, its stream asked for only once `before` has resolved (and never if it rejects). */
function calledAfter(model: Exclude<LanguageModel, string>, before: Promise<void>): Exclude<LanguageModel, string> {
  return wrapLanguageModel({
    model,
    middleware: {
      wrapStream: async ({ doStream }) => {
        await before;
        return doStream();
      },
    },
  });
}
