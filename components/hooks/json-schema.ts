// The slice of JSON Schema that interrupts carry (zod's output for tool inputs, approval data
// and requested answers): enough to check a staged decision before it is sent, so a batch
// only submits itself when the server will accept it. The server validates again; this is
// for quick, local feedback, not the authority.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  description?: string;
  title?: string;
  default?: unknown;
  const?: unknown;
  /** How to show the value: `currency` (with `currency`, an ISO 4217 code; USD when absent), `date`, `date-time`. */
  format?: string;
  currency?: string;
  /** Alternatives (an approval's response with one branch per decision). */
  oneOf?: JsonSchema[];
};

export function asSchema(value: unknown): JsonSchema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/** Problems with `value` against `schema`, each naming its path; empty when it conforms. */
export function schemaProblems(schema: JsonSchema, value: unknown, path = ''): string[] {
  const at = path || '(value)';
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((type) => hasType(type, value))) return [`${at}: expected ${types.join(' or ')}`];
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return [`${at}: must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`];
  }
  if (typeof value === 'string') return stringProblems(schema, value, at);
  if (typeof value === 'number') return numberProblems(schema, value, at);
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => schemaProblems(schema.items!, item, `${path}[${i}]`)) : [];
  if (value !== null && typeof value === 'object') return objectProblems(schema, value as Record<string, unknown>, path);
  return [];
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function stringProblems(schema: JsonSchema, value: string, at: string): string[] {
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    return [schema.minLength === 1 ? `${at}: required` : `${at}: at least ${schema.minLength} characters`];
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return [`${at}: at most ${schema.maxLength} characters`];
  return [];
}

function numberProblems(schema: JsonSchema, value: number, at: string): string[] {
  if (schema.minimum !== undefined && value < schema.minimum) return [`${at}: must be at least ${schema.minimum}`];
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return [`${at}: must be more than ${schema.exclusiveMinimum}`];
  if (schema.maximum !== undefined && value > schema.maximum) return [`${at}: must be at most ${schema.maximum}`];
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return [`${at}: must be less than ${schema.exclusiveMaximum}`];
  return [];
}

function objectProblems(schema: JsonSchema, value: Record<string, unknown>, path: string): string[] {
  const join = (key: string) => (path ? `${path}.${key}` : key);
  const problems = (schema.required ?? []).filter((key) => value[key] === undefined).map((key) => `${join(key)}: required`);
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties?.[key];
    if (property) problems.push(...schemaProblems(property, item, join(key)));
    else if (schema.additionalProperties === false) problems.push(`${join(key)}: not allowed`);
  }
  return problems;
}
