// Which model a turn runs on (docs/models.md, "Choosing a model"). The choice is the thread's: a
// turn names one of the agent's models, or takes the thread's current one — the last turn's —
// and a continuation (decisions, a browser tool's result, a retry) finishes on the model its turn
// started with, whatever is asked, so an approval never hands a turn to another model half-way.
import type { LanguageModel } from 'ai';
import type { DeepAgent } from '../../authoring';
import { modelIdOf } from '../../authoring/model-list';
import { Refusal } from '../errors';
import type { SessionView } from './reduce';

/** The thread's current model: its last turn's, while the agent still offers it; else the agent's default. */
export function threadModel(agent: DeepAgent, view: Pick<SessionView, 'lastRun'>): string {
  const last = view.lastRun?.model;
  return last !== undefined && offers(agent, last) ? last : modelIdOf(agent.model);
}

/**
 * The model a turn runs on. `requested`: what the client asked for — refused as unknown_model,
 * having written nothing, unless the agent offers it. `continuing`: the turn goes on where its
 * run stopped, on that run's model.
 */
export function turnModel(agent: DeepAgent, view: Pick<SessionView, 'lastRun'>, requested: string | undefined, continuing: boolean): string {
  checkModel(agent, requested);
  if (continuing || requested === undefined) return threadModel(agent, view);
  return requested;
}

/** Refuses (unknown_model) a model the agent does not offer: first thing, before a busy session would queue the request. */
export function checkModel(agent: DeepAgent, requested: string | undefined): void {
  if (requested === undefined || offers(agent, requested)) return;
  throw new Refusal(
    'unknown_model',
    `Agent "${agent.name}" does not offer the model "${requested}"; it offers ${agent.models.map((option) => `"${option.id}"`).join(', ')}.`,
    { model: requested, models: agent.models.map((option) => option.id) },
  );
}

/** What the AI SDK is handed for a model id: the agent's own model object for its default, else the string. */
export function modelOf(agent: DeepAgent, id: string): string | LanguageModel {
  return id === modelIdOf(agent.model) ? agent.model : id;
}

function offers(agent: DeepAgent, id: string): boolean {
  return agent.models.some((option) => option.id === id);
}
