// JSON Schema ↔ zod. JSON Schema → zod is converted once per schema: z.fromJSONSchema builds a
// validator tree, too dear to redo on every request. Keyed by the schema object (an agent's
// editableState), and by its text for schemas read back from the log (a new object on every read).
import { z } from 'zod';

/**
 * A JSON Schema as the plain JSON it is. What zod 4's toJSONSchema answers (and the AI SDK's
 * `asSchema(…).jsonSchema` of a zod schema) carries a hidden `~standard` member with functions:
 * React refuses such an object as a Client Component's prop in development (a warning per tool on
 * every page that lists an agent's tools), and an event would hold something other than what the
 * log stores.
 */
export function plainJsonSchema(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/** zod → JSON Schema, as plain JSON (plainJsonSchema). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return plainJsonSchema(z.toJSONSchema(schema));
}

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
