// The agents as OpenAI models (GET /api/v1/models): the models are the agents, listed in the
// Models API's shape, each with the models it offers (`models`, an extra field OpenAI's clients
// pass over); a name that is no agent is OpenAI's `model_not_found`.
import { agents } from '../../agents';
import { HttpError } from '../../http/errors';
import { offeredModels } from '../chat/offered-models';

export function openAiModelNotFound(model: string): HttpError {
  return new HttpError('not_found', `The model '${model}' does not exist: the models are the agents (${agents.map((agent) => agent.name).join(', ')}).`, {
    what: 'agent',
    param: 'model',
  });
}

/** When the server started: agents have no creation date, and `created` must be a number. */
const BOOTED = Math.floor(Date.now() / 1000);

export function toOpenAiModel(agent: (typeof agents)[number]) {
  return { id: agent.name, object: 'model', created: BOOTED, owned_by: 'stackbone', description: agent.description, models: offeredModels(agent) };
}

export function toOpenAiModelList(list: typeof agents) {
  return { object: 'list', data: list.map(toOpenAiModel) };
}
