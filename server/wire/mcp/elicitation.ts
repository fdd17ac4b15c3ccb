// An interrupt as an MCP elicitation, and the person's answer as a decision
// (docs/mcp.md, "A gated tool asks the MCP client's human"). MCP's form mode takes a flat object of primitive
// fields, so an approval becomes a choice (approve / reject), the tool's editable arguments
// prefilled with what the model proposed, the approval's data fields, and a reason; a question
// (`input_required`) is asked with its own responseSchema when that is flat. What cannot be
// asked in a form is decided elsewhere (Studio, the CLI, /api/hitl).
import {
  inputRequired,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequests,
  type PrimitiveSchemaDefinition,
} from '@modelcontextprotocol/server';
import type { InterruptRecord } from '../../store/pauses';
import type { JsonObject } from '../../store/messages';
import type { DecisionRequest } from '../../runtime';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** The form fields this module adds; a tool argument or data field of the same name is left out of the form. */
const DECISION = 'decision';
const REASON = 'reason';

/** How the form's fields map back onto a decision. */
interface ApprovalForm {
  /** Argument fields: their names are the argument names. */
  args: string[];
  /** Approval data fields (approvalSchema), sent as `payload`. */
  data: string[];
}

/** The form for an interrupt, or undefined when it cannot be asked in MCP's form mode. */
export function elicitationFor(record: InterruptRecord): ElicitRequestFormParams | undefined {
  if (record.reason === 'input_required') {
    const properties = flatProperties(record.responseSchema, undefined);
    if (!properties) return undefined;
    const required = Array.isArray(record.responseSchema.required) ? (record.responseSchema.required as string[]) : undefined;
    return { mode: 'form', message: record.message, requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) } };
  }
  const { schema } = approvalForm(record);
  return { mode: 'form', message: approvalMessage(record), requestedSchema: schema };
}

/** What a client declared it can ask its human. */
export interface ElicitationModes {
  form: boolean;
  url: boolean;
}

/** What a link to decide at says, in either era's URL-mode elicitation. */
export function decideAtLinkMessage(record: InterruptRecord): string {
  return `Decide in Studio: ${record.message}`;
}

/**
 * The input requests of a 2026-07-28 `input_required` round: each open interrupt under its own id,
 * as a form where it fits one and the client has forms, else as a link to decide at where the
 * client has URL mode. Undefined when any one cannot be asked: the round would come back with it
 * still open, so the call names them all as waiting in the inbox instead.
 */
export function inputRequestsFor(records: InterruptRecord[], modes: ElicitationModes, link: (record: InterruptRecord) => string): InputRequests | undefined {
  const requests: InputRequests = {};
  for (const record of records) {
    const form = modes.form ? elicitationFor(record) : undefined;
    if (form) requests[record.id] = inputRequired.elicit(form);
    else if (modes.url) requests[record.id] = inputRequired.elicitUrl({ message: decideAtLinkMessage(record), url: link(record) });
    else return undefined;
  }
  return requests;
}

/** The decision an answer makes: accept decides as the form says, decline rejects, cancel (dismissed) cancels, as on every surface. */
export function decisionFromElicitation(record: InterruptRecord, result: ElicitResult): Omit<DecisionRequest, 'interruptId'> {
  if (result.action === 'cancel') return { status: 'cancelled' };
  const content = result.content ?? {};
  const reason = typeof content[REASON] === 'string' && content[REASON].trim() ? content[REASON].trim() : undefined;
  if (record.reason === 'input_required') {
    if (result.action === 'decline') return { status: 'denied' };
    return { status: 'approved', payload: content };
  }
  if (result.action === 'decline' || content[DECISION] === 'reject') return { status: 'denied', ...(reason ? { reason } : {}) };
  const { fields } = approvalForm(record);
  const proposed = (record.input ?? {}) as Record<string, unknown>;
  const edited = { ...proposed };
  for (const name of fields.args) if (content[name] !== undefined) edited[name] = content[name];
  const changed = fields.args.some((name) => JSON.stringify(edited[name]) !== JSON.stringify(proposed[name]));
  const payload = Object.fromEntries(fields.data.flatMap((name) => (content[name] !== undefined ? [[name, content[name]]] : [])));
  return {
    status: 'approved',
    // Only a change is an edit: a plain approval is recorded as one.
    ...(changed ? { editedArgs: edited } : {}),
    ...(Object.keys(payload).length ? { payload } : {}),
  };
}

function approvalMessage(record: InterruptRecord): string {
  return `${record.agent} asks for your approval: ${record.message}`;
}

/** The approval form: the choice, the editable arguments, the approval data, the reason. */
function approvalForm(record: InterruptRecord): { schema: RequestedSchema; fields: ApprovalForm } {
  const response = approveBranch(record.responseSchema);
  const taken = new Set([DECISION, REASON]);
  const proposed = (record.input ?? {}) as Record<string, unknown>;
  const args = record.allowedDecisions.includes('edit') ? pick(flatProperties(asObject(response.editedArgs), proposed), taken) : {};
  const data = pick(flatProperties(asObject(response.payload), undefined), taken);
  const properties: Record<string, PrimitiveSchemaDefinition> = {
    [DECISION]: {
      type: 'string',
      title: 'Decision',
      oneOf: [
        { const: 'approve', title: 'Approve' },
        { const: 'reject', title: 'Reject' },
      ],
      default: 'approve',
    },
    ...args,
    ...data,
    [REASON]: { type: 'string', title: 'Reason', description: 'Why you reject it (the agent reads it).', maxLength: 2000 },
  };
  return {
    schema: { type: 'object', properties, required: [DECISION] },
    fields: { args: Object.keys(args), data: Object.keys(data) },
  };
}

/** The properties of an approval's response when approving: the one object, or the `approved: true` branch. */
function approveBranch(schema: JsonObject): Record<string, unknown> {
  const branches = Array.isArray(schema.oneOf) ? (schema.oneOf as JsonObject[]) : [schema];
  const approve = branches.find((branch) => asObject(asObject(branch.properties)?.approved)?.const !== false) ?? branches[0]!;
  return asObject(approve.properties) ?? {};
}

/** Fields whose names are free, recording each name as taken. */
function pick(properties: Record<string, PrimitiveSchemaDefinition> | undefined, taken: Set<string>): Record<string, PrimitiveSchemaDefinition> {
  const picked: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, field] of Object.entries(properties ?? {})) {
    if (taken.has(name)) continue;
    taken.add(name);
    picked[name] = field;
  }
  return picked;
}

/**
 * An object schema's primitive properties as MCP form fields (strings, numbers, booleans,
 * string enums), prefilled from `values`; a property of another kind is left out. Undefined
 * when the schema is no object schema, or (with nothing to prefill, i.e. a question) when any
 * property cannot be a field: a question asked in part would not validate.
 */
function flatProperties(schema: JsonObject | undefined, values: Record<string, unknown> | undefined): Record<string, PrimitiveSchemaDefinition> | undefined {
  if (!schema || schema.type !== 'object') return undefined;
  const fields: Record<string, PrimitiveSchemaDefinition> = {};
  for (const [name, raw] of Object.entries(asObject(schema.properties) ?? {})) {
    const field = primitiveField(asObject(raw) ?? {}, values?.[name]);
    if (field) fields[name] = field;
    else if (!values) return undefined;
  }
  return fields;
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function primitiveField(schema: JsonObject, value: unknown): PrimitiveSchemaDefinition | undefined {
  const label = {
    ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  };
  const fallback = value ?? schema.default;
  const bound = (key: string) => (typeof schema[key] === 'number' ? { [key]: schema[key] as number } : {});
  if (schema.type === 'string' && Array.isArray(schema.enum) && schema.enum.every((entry) => typeof entry === 'string')) {
    return { type: 'string', ...label, enum: schema.enum as string[], ...(typeof fallback === 'string' ? { default: fallback } : {}) };
  }
  if (schema.type === 'string') {
    return {
      type: 'string',
      ...label,
      ...bound('minLength'),
      ...bound('maxLength'),
      ...(typeof schema.format === 'string' && FORMATS.has(schema.format) ? { format: schema.format as 'email' } : {}),
      ...(typeof fallback === 'string' ? { default: fallback } : {}),
    };
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return { type: schema.type, ...label, ...bound('minimum'), ...bound('maximum'), ...(typeof fallback === 'number' ? { default: fallback } : {}) };
  }
  if (schema.type === 'boolean') return { type: 'boolean', ...label, ...(typeof fallback === 'boolean' ? { default: fallback } : {}) };
  return undefined;
}

function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}
