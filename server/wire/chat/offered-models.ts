// What GET /api/v1/models says of each agent's models (docs/internals/wires.md, "Choosing a model"): which it offers
// and which backend really serves each — by server/models/resolve.ts's routing, from the keys
// set, never their values. 'scripted' for a provider's model means no key fits it: the scripted
// model answers in its place.
import type { DeepAgent } from '../../authoring';
import { modelIdOf } from '../../authoring/model-list';
import { modelMode, type ModelMode } from '../../models/resolve';
import { modelOf } from '../../runtime';

export interface OfferedModel {
  id: string;
  label: string;
  /** A new thread runs on it. */
  default: boolean;
  backend: ModelMode;
}

export function offeredModels(agent: DeepAgent): OfferedModel[] {
  const fallback = modelIdOf(agent.model);
  return agent.models.map(({ id, label }) => ({ id, label, default: id === fallback, backend: modelMode(modelOf(agent, id)) }));
}
