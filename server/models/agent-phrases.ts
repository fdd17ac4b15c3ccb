// The offline phrases of the agent a model step runs for (server/authoring/offline-phrases.ts): the runtime
// runs each step inside runWithAgentPhrases, and the scripted model reads agentPhrases() when it
// decides. Async context rather than an argument: the AI SDK calls the model, through its retries,
// and a model may be wrapped (a test's provider that misbehaves, then answers as the scripted one);
// a call's options carry only JSON (providerOptions), and a phrase is a RegExp and a function.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OfflinePhrase } from '../authoring/offline-phrases';

const current = new AsyncLocalStorage<readonly OfflinePhrase[]>();

/** Runs `step` with the agent's phrases in reach of the scripted model. */
export function runWithAgentPhrases<T>(phrases: readonly OfflinePhrase[], step: () => T): T {
  return current.run(phrases, step);
}

/** The phrases of the agent whose step is running; none outside a step. */
export function agentPhrases(): readonly OfflinePhrase[] {
  return current.getStore() ?? [];
}
