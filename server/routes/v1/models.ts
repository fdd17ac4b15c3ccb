// GET /api/v1/models and GET /api/v1/models/{model}: the models are the agents. OpenAI's shape by
// default; Anthropic clients (an anthropic-version header, or ?format=anthropic) get the Models
// API shape (docs/internals/wires.md).
import { agents, findAgent } from '../../agents';
import { resolveOwner } from '../../identity/owner';
import { anthropicErrorResponse } from '../../wire/anthropic/errors';
import { anthropicModelNotFound, toAnthropicModel, toAnthropicModelList } from '../../wire/anthropic/models';
import { wantsAnthropicShape } from '../../wire/chat/session-key';
import { openAiErrorResponse } from '../../wire/openai/errors';
import { openAiModelNotFound, toOpenAiModel, toOpenAiModelList } from '../../wire/openai/models';
import { jsonResponse } from '../../http/small-answers';

async function handleOpenAiModels(request: Request, model?: string): Promise<Response> {
  try {
    await resolveOwner(request);
    if (model === undefined) return jsonResponse(toOpenAiModelList(agents));
    const agent = findAgent(model);
    if (!agent) throw openAiModelNotFound(model);
    return jsonResponse(toOpenAiModel(agent));
  } catch (error) {
    return openAiErrorResponse(error);
  }
}

async function handleAnthropicModels(request: Request, model?: string): Promise<Response> {
  try {
    await resolveOwner(request);
    if (model !== undefined) {
      const agent = findAgent(model);
      if (!agent) throw anthropicModelNotFound(model);
      return jsonResponse(toAnthropicModel(agent));
    }
    return jsonResponse(toAnthropicModelList(agents));
  } catch (error) {
    return anthropicErrorResponse(error);
  }
}

/** The model list, or one model (`model`), in the shape of the wire that asks. */
export function handleModels(request: Request, model?: string): Promise<Response> {
  return wantsAnthropicShape(request) ? handleAnthropicModels(request, model) : handleOpenAiModels(request, model);
}
