// The agents as Anthropic models (GET /api/v1/models in the Models API shape): the models are
// the agents, each with the models it offers (`models`, an extra field); a name that is no agent
// is a `model_not_found`.
import { agents } from '../../agents';
import { HttpError } from '../../http/errors';
import { offeredModels } from '../chat/offered-models';

export function anthropicModelNotFound(model: string): HttpError {
  return new HttpError('not_found', `model: ${model} is not an agent here (the models are ${agents.map((agent) => agent.name).join(', ')}).`, {
    what: 'agent',
    param: 'model',
  });
}

const BOOTED = new Date().toISOString();

export function toAnthropicModel(agent: (typeof agents)[number]) {
  return { type: 'model', id: agent.name, display_name: agent.name, created_at: BOOTED, description: agent.description, models: offeredModels(agent) };
}

export function toAnthropicModelList(list: typeof agents) {
  const data = list.map(toAnthropicModel);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
