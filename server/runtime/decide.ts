// Interrupts and decisions (SPEC §2 toolApproval, §5 resume, §8). Every rule about who may
// decide what lives here; wires only translate their shapes into these calls.
import { createHash, randomUUID } from 'node:crypto';
import { asSchema, type Tool } from 'ai';
import { z } from 'zod';
import type { ApprovalPolicy, ApprovalSchemas, DeepAgent, ToolApprovalOptions } from '../define';
import type { Decision, DecisionActor, DecisionKind, InterruptRecord, JsonObject, ToolCall } from './events';
import { parseDuration } from './duration';
import { RunRejectedError } from './errors';
import type { SessionView } from './reduce';
import { pendingInterrupts } from './reduce';
import { agentTools, validateToolInput } from './tools';

export interface NormalizedApproval {
  policy: ToolApprovalOptions['policy'];
  allowEdit: boolean;
  /** As declared: one schema for either decision, or one per decision. */
  approvalSchema?: z.ZodType | ApprovalSchemas;
  describe?: (input: any) => string;
  ttlMs?: number;
  onExpire: 'deny' | 'approve';
}

export function approvalOptions(agent: DeepAgent, toolName: string): NormalizedApproval {
  const spec = agent.toolApproval[toolName];
  if (spec === undefined) return { policy: 'approved', allowEdit: false, onExpire: 'deny' };
  if (typeof spec === 'string' || typeof spec === 'function') return { policy: spec, allowEdit: false, onExpire: 'deny' };
  return {
    policy: spec.policy,
    allowEdit: spec.allowEdit ?? false,
    approvalSchema: spec.approvalSchema,
    describe: spec.describe,
    ttlMs: spec.ttl === undefined ? undefined : parseDuration(spec.ttl, 'ttl'),
    onExpire: spec.onExpire ?? 'deny',
  };
}

/**
 * The policy for one call. A policy function decides on the input as the tool would receive
 * it (its schema's defaults and coercions applied), not on the model's raw arguments: `{}`
 * with `amount` defaulting to 500 is a call for 500. Deterministic over the input: it runs
 * again on recovery.
 */
export async function policyFor(agent: DeepAgent, call: ToolCall, sessionId?: string): Promise<ApprovalPolicy> {
  const { policy } = approvalOptions(agent, call.name);
  if (typeof policy !== 'function') return policy;
  const definition = agentTools(agent)[call.name];
  const checked = definition ? await validateToolInput(definition, call.input) : null;
  // A call its tool would refuse is not put to a person: it runs into its validation error,
  // which the model reads, and the tool's code never runs.
  if (!checked?.ok) return 'approved';
  return policy(checked.value, { agent: agent.name, sessionId });
}

function inputJsonSchema(definition: Tool): JsonObject {
  return asSchema(definition.inputSchema).jsonSchema as JsonObject;
}

/** The schema of a decision's data: the one schema, or that decision's own. */
export function decisionDataSchema(options: NormalizedApproval, decision: 'approve' | 'reject'): z.ZodType | undefined {
  const schema = options.approvalSchema;
  return schema instanceof z.ZodType ? schema : schema?.[decision];
}

function approvalJsonSchema(options: NormalizedApproval): JsonObject | undefined {
  const schema = options.approvalSchema;
  if (!schema) return undefined;
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema) as JsonObject;
  const json = (branch?: z.ZodType) => (branch ? (z.toJSONSchema(branch) as JsonObject) : null);
  return { approve: json(schema.approve), reject: json(schema.reject) };
}

/** Identifies the shape of a tool's arguments and approval data, to refuse resumes after a change. */
export function toolSchemaHash(agent: DeepAgent, toolName: string): string {
  const definition = agentTools(agent)[toolName];
  const shape = { input: definition ? inputJsonSchema(definition) : null, approval: approvalJsonSchema(approvalOptions(agent, toolName)) ?? null };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 32);
}

export function buildInterrupt(agent: DeepAgent, call: ToolCall, runId: string, scope?: string, now = Date.now()): InterruptRecord {
  const options = approvalOptions(agent, call.name);
  const definition = agentTools(agent)[call.name]!;
  const allowedDecisions: DecisionKind[] = options.allowEdit ? ['approve', 'reject', 'edit'] : ['approve', 'reject'];
  const editedArgs = options.allowEdit ? { ...inputJsonSchema(definition), description: 'Replacement arguments (approve only).' } : undefined;
  const dataOf = (decision: 'approve' | 'reject') => {
    const schema = decisionDataSchema(options, decision);
    return schema ? (z.toJSONSchema(schema) as JsonObject) : undefined;
  };
  let description: string | undefined;
  try {
    description = options.describe?.(call.input) || undefined;
  } catch {
    // A describe() that throws must not lose the interrupt: it pauses without a description.
  }
  return {
    id: `int_${randomUUID()}`,
    reason: 'tool_call',
    toolCallId: call.id,
    toolName: call.name,
    input: call.input,
    // A pause that carries no description omits it; the message is then generated from the call.
    message: description ?? `${call.name}(${JSON.stringify(call.input)})`,
    ...(description !== undefined ? { description } : {}),
    responseSchema: approvalResponseSchema(editedArgs, dataOf('approve'), dataOf('reject'), !(options.approvalSchema instanceof z.ZodType) && options.approvalSchema !== undefined),
    allowedDecisions,
    ...(options.ttlMs !== undefined ? { expiresAt: new Date(now + options.ttlMs).toISOString() } : {}),
    onExpire: options.onExpire,
    schemaHash: toolSchemaHash(agent, call.name),
    runId,
    agent: agent.name,
    ...(scope ? { scope } : {}),
  };
}

/**
 * What an approval's response may be: `{approved, reason?, editedArgs?, payload?}`. With one
 * data schema for both decisions it is one object; with a schema per decision, one branch per
 * decision (`oneOf`, told apart by `approved`), each with its own `payload`.
 */
function approvalResponseSchema(editedArgs: JsonObject | undefined, approveData: JsonObject | undefined, rejectData: JsonObject | undefined, perDecision: boolean): JsonObject {
  const approved = { type: 'boolean', description: 'Approve (true) or reject (false) the call.' };
  const reason = { type: 'string', description: 'Why it was rejected (shown to the model).' };
  if (!perDecision) {
    const properties: JsonObject = { approved, reason, ...(editedArgs ? { editedArgs } : {}), ...(approveData ? { payload: approveData } : {}) };
    return { type: 'object', properties, required: ['approved'], additionalProperties: false };
  }
  const approve: JsonObject = { approved: { const: true }, ...(editedArgs ? { editedArgs } : {}), ...(approveData ? { payload: approveData } : {}) };
  const reject: JsonObject = { approved: { const: false }, reason, ...(rejectData ? { payload: rejectData } : {}) };
  const branch = (properties: JsonObject, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
  return { oneOf: [branch(approve, approveData ? ['approved', 'payload'] : ['approved']), branch(reject, rejectData ? ['approved', 'payload'] : ['approved'])] };
}

/**
 * True for a tool approval that takes a yes or a no and nothing else: the tool allows no
 * edits and has no approval data, so no branch of its responseSchema has `editedArgs` or
 * `payload`. Wires may describe such an answer more narrowly (docs/wires.md, "TanStack AI's
 * client").
 */
export function isYesOrNoApproval(record: InterruptRecord): boolean {
  const branches = (Array.isArray(record.responseSchema.oneOf) ? record.responseSchema.oneOf : [record.responseSchema]) as JsonObject[];
  return record.reason === 'tool_call' && branches.every((branch) => !('editedArgs' in ((branch.properties ?? {}) as JsonObject)) && !('payload' in ((branch.properties ?? {}) as JsonObject)));
}

/** The pause of a tool that called requestInput(): the person's answer is the response. */
export function buildInputInterrupt(agent: DeepAgent, call: ToolCall, runId: string, request: { message: string; responseSchema: JsonObject }, scope?: string): InterruptRecord {
  return {
    id: `int_${randomUUID()}`,
    reason: 'input_required',
    toolCallId: call.id,
    toolName: call.name,
    input: call.input,
    message: request.message,
    responseSchema: request.responseSchema,
    // approve = answer (the payload is the answer), reject = decline to answer.
    allowedDecisions: ['approve', 'reject'],
    onExpire: 'deny',
    schemaHash: toolSchemaHash(agent, call.name),
    runId,
    agent: agent.name,
    ...(scope ? { scope } : {}),
  };
}

export function isExpired(record: InterruptRecord, now = Date.now()): boolean {
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now;
}

export function expiryDecision(record: InterruptRecord): Decision {
  return record.onExpire === 'approve'
    ? { status: 'approved', expired: true, by: { source: 'expiry' } }
    : { status: 'denied', reason: 'The approval request expired.', expired: true, by: { source: 'expiry' } };
}

/** A decision as a wire or the HTTP API received it, before validation. */
export interface DecisionRequest {
  interruptId: string;
  status: 'approved' | 'denied' | 'cancelled';
  editedArgs?: unknown;
  payload?: unknown;
  reason?: string;
}

/** An AG-UI resume entry as it arrives. */
export interface ResumeEntryInput {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

const DECISION_KEYS = new Set(['approved', 'reason', 'editedArgs', 'payload']);

/**
 * AG-UI resume entry → decision request. For a tool call the payload is
 * {approved, reason?, editedArgs?, payload?}; for requested input it is the answer itself.
 */
export function fromResumeEntry(entry: ResumeEntryInput, record: InterruptRecord | undefined): DecisionRequest {
  if (entry.status === 'cancelled') return { interruptId: entry.interruptId, status: 'cancelled' };
  if (record?.reason === 'input_required') return { interruptId: entry.interruptId, status: 'approved', payload: entry.payload };
  const payload = (entry.payload ?? {}) as { approved?: unknown; reason?: unknown; editedArgs?: unknown; payload?: unknown };
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new RunRejectedError('resume_invalid', `Resume for ${entry.interruptId}: payload must be an object like {approved: true}.`, 400, { interruptId: entry.interruptId });
  }
  const custom = Object.keys(payload).find((key) => !DECISION_KEYS.has(key));
  if (custom !== undefined) {
    throw new RunRejectedError('resume_invalid', `Resume for ${entry.interruptId}: "${custom}" is not part of a decision ({approved, reason?, editedArgs?, payload?}); data for the tool's approvalSchema goes under payload.`, 400, { interruptId: entry.interruptId });
  }
  const approved = payload.approved ?? (payload.editedArgs !== undefined ? true : undefined);
  if (typeof approved !== 'boolean') {
    throw new RunRejectedError('resume_invalid', `Resume for ${entry.interruptId}: payload.approved must be true or false.`, 400, { interruptId: entry.interruptId });
  }
  if (!approved && payload.editedArgs !== undefined) {
    throw new RunRejectedError('resume_invalid', `Resume for ${entry.interruptId}: a rejection cannot carry editedArgs.`, 400, { interruptId: entry.interruptId });
  }
  if (payload.reason !== undefined && typeof payload.reason !== 'string') {
    throw new RunRejectedError('resume_invalid', `Resume for ${entry.interruptId}: payload.reason must be a string.`, 400, { interruptId: entry.interruptId });
  }
  return {
    interruptId: entry.interruptId,
    status: approved ? 'approved' : 'denied',
    ...(payload.editedArgs !== undefined ? { editedArgs: payload.editedArgs } : {}),
    ...(payload.payload !== undefined ? { payload: payload.payload } : {}),
    ...(typeof payload.reason === 'string' ? { reason: payload.reason } : {}),
  };
}

/**
 * Validates one decision against its interrupt and the agent as it is now. Returns the
 * decision to record (edits and payload parsed by their schemas).
 */
export async function validateDecision(agent: DeepAgent, record: InterruptRecord, request: DecisionRequest, by: DecisionActor, now = Date.now()): Promise<Decision> {
  const reject = (code: string, message: string, status = 400) => new RunRejectedError(code, message, status, { interruptId: record.id });
  if (isExpired(record, now)) throw reject('interrupt_expired', `Interrupt ${record.id} expired at ${record.expiresAt}.`, 409);
  const owner = findToolAgent(agent, record.agent);
  if (!owner || !agentTools(owner)[record.toolName] || toolSchemaHash(owner, record.toolName) !== record.schemaHash) {
    throw reject('tool_schema_changed', `Tool ${record.toolName} changed since interrupt ${record.id} was raised; it cannot be resumed. Ask the agent again.`, 409);
  }
  if (request.status === 'cancelled') return { status: 'cancelled', by };
  if (record.reason === 'input_required') return validateAnswer(record, request, by);
  const options = approvalOptions(owner, record.toolName);
  if (request.status === 'denied') {
    if (request.editedArgs !== undefined) throw reject('resume_invalid', `A rejection cannot carry editedArgs (interrupt ${record.id}).`);
    const payload = decisionData(record, decisionDataSchema(options, 'reject'), request.payload);
    return { status: 'denied', ...(request.reason ? { reason: request.reason } : {}), ...(request.payload !== undefined ? { payload } : {}), by };
  }
  const decision: Decision = { status: 'approved', by };
  if (request.editedArgs !== undefined) {
    if (!options.allowEdit) throw reject('edit_not_allowed', `${record.toolName} does not allow edited arguments (interrupt ${record.id}).`);
    const checked = await validateToolInput(agentTools(owner)[record.toolName]!, request.editedArgs);
    if (!checked.ok) throw reject('edited_args_invalid', `editedArgs for ${record.toolName} are invalid: ${checked.error}`);
    decision.editedArgs = checked.value;
  }
  const payload = decisionData(record, decisionDataSchema(options, 'approve'), request.payload);
  if (payload !== undefined) decision.payload = payload;
  return decision;
}

/** A decision's data checked against its schema (defaults applied); as given when there is none. */
function decisionData(record: InterruptRecord, schema: z.ZodType | undefined, payload: unknown): unknown {
  if (!schema) return payload;
  const parsed = schema.safeParse(payload ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunRejectedError('payload_invalid', `payload for ${record.toolName} is invalid: ${issue ? `${issue.path.join('.') || '(payload)'}: ${issue.message}` : 'invalid'}`, 400, { interruptId: record.id });
  }
  return parsed.data;
}

/** An answer to requested input: validated against the schema the tool asked with. */
function validateAnswer(record: InterruptRecord, request: DecisionRequest, by: DecisionActor): Decision {
  if (request.editedArgs !== undefined) {
    throw new RunRejectedError('resume_invalid', `Interrupt ${record.id} asks for input; it takes no editedArgs.`, 400, { interruptId: record.id });
  }
  if (request.status === 'denied') return { status: 'denied', ...(request.reason ? { reason: request.reason } : {}), by };
  const parsed = answerSchema(record).safeParse(request.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunRejectedError('payload_invalid', `The answer to "${record.message}" is invalid: ${issue ? `${issue.path.join('.') || '(answer)'}: ${issue.message}` : 'invalid'}`, 400, { interruptId: record.id });
  }
  return { status: 'approved', payload: parsed.data, by };
}

const answerSchemas = new Map<string, z.ZodType>();
function answerSchema(record: InterruptRecord): z.ZodType {
  const key = JSON.stringify(record.responseSchema);
  let schema = answerSchemas.get(key);
  if (!schema) answerSchemas.set(key, (schema = z.fromJSONSchema(record.responseSchema as Parameters<typeof z.fromJSONSchema>[0])));
  return schema;
}

/** The agent (root or subagent) that owns a tool named in an interrupt. */
export function findToolAgent(root: DeepAgent, name: string): DeepAgent | undefined {
  if (root.name === name) return root;
  for (const subagent of root.subagents) {
    const found = findToolAgent(subagent, name);
    if (found) return found;
  }
  return undefined;
}

/** Same decision, same content: an identical replay of a resume that already applied. */
export function sameDecision(recorded: Decision, request: DecisionRequest): boolean {
  if (recorded.status !== request.status) return false;
  if (request.status === 'cancelled') return true;
  const canonical = (value: unknown) => JSON.stringify(value ?? null);
  return (
    canonical(recorded.editedArgs) === canonical(request.editedArgs) &&
    (request.payload === undefined || canonical(recorded.payload) === canonical(request.payload)) &&
    (recorded.reason ?? null) === (request.reason ?? null)
  );
}

export type ResumePlan =
  | { kind: 'apply'; decisions: { interruptId: string; decision: Decision }[] }
  | { kind: 'replay' };

/**
 * Checks an AG-UI resume against the session: all-or-nothing over the open batch, each
 * interrupt addressed exactly once. `elsewhere(id)` tells whether an id belongs to another
 * session, for a precise error.
 */
export async function planResume(
  agent: DeepAgent,
  view: SessionView,
  requests: DecisionRequest[],
  by: DecisionActor,
  elsewhere: (interruptId: string) => Promise<boolean>,
  /** An AG-UI client may resend a resume it is unsure arrived; a second out-of-band decision is refused. */
  options: { replayable: boolean } = { replayable: true },
): Promise<ResumePlan> {
  const seen = new Set<string>();
  for (const request of requests) {
    if (seen.has(request.interruptId)) throw new RunRejectedError('resume_duplicate', `Interrupt ${request.interruptId} is addressed twice in one resume.`, 400, { interruptId: request.interruptId });
    seen.add(request.interruptId);
    if (!view.interrupts[request.interruptId]) {
      if (await elsewhere(request.interruptId)) {
        throw new RunRejectedError('interrupt_other_thread', `Interrupt ${request.interruptId} belongs to another thread.`, 400, { interruptId: request.interruptId });
      }
      throw new RunRejectedError('interrupt_unknown', `No interrupt ${request.interruptId} on this thread.`, 404, { interruptId: request.interruptId });
    }
  }
  const decided = requests.filter((request) => view.interrupts[request.interruptId]!.decision);
  if (decided.length > 0) {
    const identical = options.replayable && decided.length === requests.length && requests.every((request) => sameDecision(view.interrupts[request.interruptId]!.decision!, request));
    if (identical) return { kind: 'replay' };
    const first = decided[0]!;
    if (view.interrupts[first.interruptId]!.decision!.expired) {
      const record = view.interrupts[first.interruptId]!.record;
      throw new RunRejectedError('interrupt_expired', `Interrupt ${first.interruptId} expired at ${record.expiresAt} and took its default action (${record.onExpire}).`, 409, { interruptId: first.interruptId });
    }
    throw new RunRejectedError('interrupt_already_decided', `Interrupt ${first.interruptId} was already decided (${view.interrupts[first.interruptId]!.decision!.status}).`, 409, { interruptId: first.interruptId });
  }
  const open = pendingInterrupts(view).map((record) => record.id);
  const missing = open.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw new RunRejectedError('resume_incomplete', `A resume must address every open interrupt; missing: ${missing.join(', ')}.`, 400, { missing });
  }
  const decisions = [];
  for (const request of requests) {
    decisions.push({ interruptId: request.interruptId, decision: await validateDecision(agent, view.interrupts[request.interruptId]!.record, request, by) });
  }
  return { kind: 'apply', decisions };
}
