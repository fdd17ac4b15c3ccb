// Model strings → AI SDK models (README, "Models"). An agent names its model as `provider/model`;
// which backend serves it depends on the keys in the environment, read at call time:
//
//   STACKBONE_MODEL=scripted            → the scripted model, whatever keys are set (tests)
//   scripted/*                          → the scripted model, always
//   openai/*     + OPENAI_API_KEY       → @ai-sdk/openai: the Responses API, or chat completions
//                                          at an OPENAI_BASE_URL (any compatible server);
//                                          OPENAI_API=responses|chat says which
//   anthropic/*  + ANTHROPIC_API_KEY    → @ai-sdk/anthropic (ANTHROPIC_BASE_URL honoured)
//   anything     + AI_GATEWAY_API_KEY or VERCEL_OIDC_TOKEN → the Vercel AI Gateway
//   otherwise                           → the scripted model (offline, deterministic)
//
// A model object (e.g. a test's MockLanguageModelV4) is used as given, even when scripted mode
// is forced: whoever passed an object chose that model on purpose.
import { createAnthropic } from '@ai-sdk/anthropic';
import { gateway } from '@ai-sdk/gateway';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { createScriptedModel, SCRIPTED_PROVIDER } from './scripted';
import { setting, settingProblem } from '../config';

/** A model object the AI SDK can call: never a bare string. */
type ModelInstance = Exclude<LanguageModel, string>;

export interface ResolvedModel {
  model: ModelInstance;
  /** 'scripted' | 'openai' | 'anthropic' | 'gateway', or a given model's own provider. */
  provider: string;
  /** Without the provider prefix for openai/anthropic; the whole string for gateway/scripted. */
  modelId: string;
  scripted: boolean;
}

/** Which backend serves a model; 'custom' is a model object an agent passed itself. */
export type ModelMode = 'scripted' | 'openai' | 'anthropic' | 'gateway' | 'custom';

type Route =
  | { mode: 'scripted'; why: 'forced' | 'no-keys' | 'no-matching-key' | 'named' }
  | { mode: 'openai' | 'anthropic'; apiKey: string; modelId: string }
  | { mode: 'gateway'; credential: 'AI_GATEWAY_API_KEY' | 'VERCEL_OIDC_TOKEN' };

// An empty variable counts as unset (server/config): a blank line in .env must not switch providers.
const scriptedForced = () => setting('STACKBONE_MODEL') === SCRIPTED_PROVIDER;

function gatewayCredential(): 'AI_GATEWAY_API_KEY' | 'VERCEL_OIDC_TOKEN' | undefined {
  if (setting('AI_GATEWAY_API_KEY')) return 'AI_GATEWAY_API_KEY';
  if (setting('VERCEL_OIDC_TOKEN')) return 'VERCEL_OIDC_TOKEN';
  return undefined;
}

const anyKeySet = () => Boolean(setting('OPENAI_API_KEY') || setting('ANTHROPIC_API_KEY') || gatewayCredential());

function splitModelString(model: string): { provider: string; modelId: string } {
  const slash = model.indexOf('/');
  return slash < 0 ? { provider: '', modelId: model } : { provider: model.slice(0, slash).toLowerCase(), modelId: model.slice(slash + 1) };
}

function route(model: string): Route {
  const { provider, modelId } = splitModelString(model);
  if (scriptedForced()) return { mode: 'scripted', why: 'forced' };
  if (provider === SCRIPTED_PROVIDER) return { mode: 'scripted', why: 'named' };
  const openaiKey = setting('OPENAI_API_KEY');
  if (provider === 'openai' && openaiKey) return { mode: 'openai', apiKey: openaiKey, modelId };
  const anthropicKey = setting('ANTHROPIC_API_KEY');
  if (provider === 'anthropic' && anthropicKey) return { mode: 'anthropic', apiKey: anthropicKey, modelId };
  const credential = gatewayCredential();
  if (credential) return { mode: 'gateway', credential };
  return { mode: 'scripted', why: anyKeySet() ? 'no-matching-key' : 'no-keys' };
}

// ─── Saying once which backend is in use (never a key value) ────────────────────────────

const announced = new Set<string>();

function announce(message: string): void {
  if (announced.has(message)) return;
  announced.add(message);
  console.info(`[stackbone] ${message}`);
}

function announceRoute(model: string, r: Route): void {
  switch (r.mode) {
    case 'scripted':
      if (r.why === 'forced') announce('STACKBONE_MODEL=scripted: using the built-in scripted model (offline, deterministic); model API keys are ignored');
      else if (r.why === 'no-keys') announce('no model API key set: using the built-in scripted model (offline, deterministic)');
      else if (r.why === 'no-matching-key') announce(`no API key fits "${model}" (and no AI Gateway key): using the built-in scripted model for it`);
      return;
    case 'openai':
      announce(
        `OPENAI_API_KEY set: openai/* models use ${setting('OPENAI_BASE_URL') ? 'the OpenAI-compatible server at OPENAI_BASE_URL' : 'the OpenAI API'} (${openAiApi() === 'chat' ? 'chat completions' : 'the Responses API'})`,
      );
      return;
    case 'anthropic':
      announce(
        `ANTHROPIC_API_KEY set: anthropic/* models use ${setting('ANTHROPIC_BASE_URL') ? 'the Anthropic-compatible server at ANTHROPIC_BASE_URL' : 'the Anthropic API'}`,
      );
      return;
    case 'gateway':
      announce(`${r.credential} set: models go through the Vercel AI Gateway`);
      return;
  }
}

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Which OpenAI API openai/* models speak. OpenAI's own server: the Responses API. A server at
 * OPENAI_BASE_URL: chat completions, which compatible servers (Ollama, vLLM, LM Studio) speak,
 * unless OPENAI_API=responses says it serves the Responses API too.
 */
function openAiApi(): 'responses' | 'chat' {
  const problem = settingProblem('OPENAI_API');
  if (problem) throw new Error(`${problem} (README, "Models").`);
  return setting('OPENAI_API') ?? (setting('OPENAI_BASE_URL') ? 'chat' : 'responses');
}
const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';

// ─── The API ────────────────────────────────────────────────────────────────────────────

export function resolveModel(model: string | LanguageModel): ResolvedModel {
  if (typeof model !== 'string') {
    return { model, provider: model.provider, modelId: model.modelId, scripted: model.provider === SCRIPTED_PROVIDER };
  }
  const r = route(model);
  announceRoute(model, r);
  switch (r.mode) {
    case 'scripted': {
      // A small delay makes scripted streaming visible in the UI and lets a user press Stop.
      const delayMs = setting('STACKBONE_SCRIPTED_DELAY_MS');
      return { model: createScriptedModel({ modelId: model, delayMs }), provider: SCRIPTED_PROVIDER, modelId: model, scripted: true };
    }
    case 'openai': {
      const baseURL = setting('OPENAI_BASE_URL');
      // Always pass a base URL: given none, the provider reads OPENAI_BASE_URL itself and
      // rejects a blank one.
      const openai = createOpenAI({ apiKey: r.apiKey, baseURL: baseURL ?? OPENAI_DEFAULT_BASE_URL });
      return { model: openAiApi() === 'chat' ? openai.chat(r.modelId) : openai.responses(r.modelId), provider: 'openai', modelId: r.modelId, scripted: false };
    }
    case 'anthropic': {
      const anthropic = createAnthropic({ apiKey: r.apiKey, baseURL: setting('ANTHROPIC_BASE_URL') ?? ANTHROPIC_DEFAULT_BASE_URL });
      return { model: anthropic(r.modelId), provider: 'anthropic', modelId: r.modelId, scripted: false };
    }
    case 'gateway':
      return { model: gateway(model), provider: 'gateway', modelId: model, scripted: false };
  }
}

/**
 * The backend that serves `model` (a model string or object). Without an argument: the
 * process-wide answer, 'scripted' when forced or when no key is set at all, otherwise the
 * first configured of openai, anthropic, gateway.
 */
export function modelMode(model?: string | LanguageModel): ModelMode {
  if (model !== undefined) {
    if (typeof model !== 'string') return model.provider === SCRIPTED_PROVIDER ? 'scripted' : 'custom';
    return route(model).mode;
  }
  if (scriptedForced()) return 'scripted';
  if (setting('OPENAI_API_KEY')) return 'openai';
  if (setting('ANTHROPIC_API_KEY')) return 'anthropic';
  if (gatewayCredential()) return 'gateway';
  return 'scripted';
}

/** For the UI marker "scripted model in use" (per agent when given its model). */
export function isScriptedMode(model?: string | LanguageModel): boolean {
  return modelMode(model) === 'scripted';
}
