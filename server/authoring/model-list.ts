// The models an agent offers a person to choose from (docs/models.md, "Choosing a model"): its
// `models` list, checked when the agent is defined, with its `model` as the default.
import type { LanguageModel } from 'ai';

/** One model an agent offers: its `provider/model` string and what the picker calls it. */
export interface ModelOption {
  id: string;
  label: string;
}

/** How `defineDeepAgent({models})` names a model: its string, or the string with a label. */
export type ModelSpec = string | { id: string; label?: string };

/** More would not fit a picker, and no one compares nine models in a chat. */
const MAX_MODELS = 8;
const MAX_ID_CHARS = 200;
const MAX_LABEL_CHARS = 40;

/** The id a model goes by: its string, or `provider/modelId` of a model object. */
export function modelIdOf(model: string | LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
}

/** What a picker shows for a model string without a label: the model's own name, after its provider. */
function defaultLabel(id: string): string {
  return id.slice(id.indexOf('/') + 1) || id;
}

/**
 * The agent's models in the order given; `model`, the default, leads the list when `models` leaves it out. A
 * model object can only be the one model (a list names models by string). Throws, naming the
 * agent, on an empty or over-long id or label, a repeat, or more than MAX_MODELS.
 */
export function modelList(agent: string, model: string | LanguageModel, models: readonly ModelSpec[] | undefined): ModelOption[] {
  const fail = (why: string) => new Error(`Agent "${agent}": ${why}`);
  if (models === undefined) return [{ id: modelIdOf(model), label: defaultLabel(modelIdOf(model)) }];
  if (!Array.isArray(models) || models.length === 0) throw fail('models is a list of 1 to 8 model strings (or {id, label}).');
  if (typeof model !== 'string') throw fail('models names models by string; with a model object as `model`, leave models out.');
  const options = models.map((spec, index): ModelOption => {
    const id = typeof spec === 'string' ? spec : (spec as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id.trim() || id !== id.trim() || id.length > MAX_ID_CHARS || /\s/.test(id))
      throw fail(`models[${index}] must be a model string like "openai/gpt-5-mini" (1 to ${MAX_ID_CHARS} characters, no spaces).`);
    const label = typeof spec === 'string' ? undefined : spec.label;
    if (label !== undefined && (typeof label !== 'string' || !label.trim() || label.length > MAX_LABEL_CHARS || /[\r\n]/.test(label)))
      throw fail(`the label of models[${index}] is one line of 1 to ${MAX_LABEL_CHARS} characters.`);
    return { id, label: label ?? defaultLabel(id) };
  });
  const seen = new Set<string>();
  for (const { id } of options) {
    if (seen.has(id)) throw fail(`models lists "${id}" twice.`);
    seen.add(id);
  }
  // The author's order is the picker's; a default the list leaves out goes first.
  const list = seen.has(model) ? options : [{ id: model, label: defaultLabel(model) }, ...options];
  if (list.length > MAX_MODELS) throw fail(`models offers at most ${MAX_MODELS} models (with the default, ${list.length}).`);
  return list;
}
