// JSON Schema → zod, converted once per schema: z.fromJSONSchema builds a validator tree, too
// dear to redo on every request. Keyed by the schema object (an agent's editableState), and by
// its text for schemas read back from the log (a new object on every read).
import { z } from 'zod';

const byObject = new WeakMap<object, z.ZodType>();
const byText = new Map<string, z.ZodType>();
/** Distinct schemas read from logs kept converted; the oldest is dropped first. */
const TEXT_CAPACITY = 500;

export function zodFromJsonSchema(schema: object): z.ZodType {
  let converted = byObject.get(schema);
  if (converted) return converted;
  const text = JSON.stringify(schema);
  converted = byText.get(text);
  if (!converted) {
    converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    byText.set(text, converted);
    if (byText.size > TEXT_CAPACITY) byText.delete(byText.keys().next().value!);
  }
  byObject.set(schema, converted);
  return converted;
}
