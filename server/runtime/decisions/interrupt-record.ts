// The pause: the interrupt record a gated call or a question opens, what its response may be
// (responseSchema), and what happens when it expires (docs/hitl.md, "The interrupt", "Expiry").
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { jsonSchemaOf } from '../common';
import type { DeepAgent } from '../../authoring';
import { approvalOptions, decisionDataSchema, inputJsonSchema, quorumFor, toolSchemaHash } from './approval-policy';
import type { ApprovalFacts, DecisionKind, GrantScope, InterruptRecord } from '../../store/pauses';
import type { JsonObject, ToolCall } from '../../store/messages';
import { agentTools } from '../tools';
import { formatDuration } from '../../authoring/duration';
import { readableName } from '../../authoring/readable-name';

export function buildInterrupt(agent: DeepAgent, call: ToolCall, runId: string, scope?: string, now = Date.now(), context?: ApprovalFacts): InterruptRecord {
  const options = approvalOptions(agent, call.name);
  const definition = agentTools(agent)[call.name]!;
  const quorum = quorumFor(options, call);
  // Approvers of a quorum approve the same arguments: none of them edits them.
  const allowEdit = options.allowEdit && quorum === 1;
  const allowedDecisions: DecisionKind[] = allowEdit ? ['approve', 'reject', 'edit'] : ['approve', 'reject'];
  const editedArgs = allowEdit ? { ...inputJsonSchema(definition), description: 'Replacement arguments (approve only).' } : undefined;
  const dataOf = (decision: 'approve' | 'reject') => {
    const schema = decisionDataSchema(options, decision);
    return schema ? (jsonSchemaOf(schema) as JsonObject) : undefined;
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
    // A pause that carries no description omits it; the message is then what the tool is called
    // (its title, else its name in words): a card's headline never reads as raw arguments, which
    // the card shows as labelled fields below it (docs/hitl.md, "The interrupt").
    message: description ?? (definition.title?.trim() || readableName(call.name)),
    ...(description !== undefined ? { description } : {}),
    ...(context ? { context } : {}),
    responseSchema: approvalResponseSchema(
      editedArgs,
      dataOf('approve'),
      dataOf('reject'),
      !(options.approvalSchema instanceof z.ZodType) && options.approvalSchema !== undefined,
      grantJsonSchema(options.grantScopes, options.maxGrantTimeMs),
    ),
    allowedDecisions,
    ...(options.ttlMs !== undefined ? { expiresAt: new Date(now + options.ttlMs).toISOString() } : {}),
    onExpire: options.onExpire,
    ...(options.ttlMs !== undefined && options.escalation ? { escalation: options.escalation } : {}),
    ...(options.ttlMs !== undefined && options.remindBeforeMs !== undefined
      ? { remindAt: new Date(now + Math.max(0, options.ttlMs - options.remindBeforeMs)).toISOString() }
      : {}),
    ...(options.approvers === 'key-holders' ? { approvers: options.approvers } : {}),
    // Recorded as asked, so a decision is checked against what was asked, not later code (docs/approvals.md).
    ...(Array.isArray(options.approvers) ? { approvers: [...options.approvers] } : {}),
    ...(quorum > 1 ? { quorum } : {}),
    ...(options.requesterMayApprove ? {} : { requesterMayApprove: false as const }),
    ...(quorum > 1 && options.rejectOn === 'quorum' ? { rejectOn: 'quorum' as const } : {}),
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
function approvalResponseSchema(
  editedArgs: JsonObject | undefined,
  approveData: JsonObject | undefined,
  rejectData: JsonObject | undefined,
  perDecision: boolean,
  grant?: JsonObject,
): JsonObject {
  const approved = { type: 'boolean', description: 'Approve (true) or reject (false) the call.' };
  const reason = { type: 'string', description: 'Why it was rejected (shown to the model).' };
  if (!perDecision) {
    const properties: JsonObject = {
      approved,
      reason,
      ...(editedArgs ? { editedArgs } : {}),
      ...(approveData ? { payload: approveData } : {}),
      ...(grant ? { grant } : {}),
    };
    return { type: 'object', properties, required: ['approved'], additionalProperties: false };
  }
  const approve: JsonObject = {
    approved: { const: true },
    ...(editedArgs ? { editedArgs } : {}),
    ...(approveData ? { payload: approveData } : {}),
    ...(grant ? { grant } : {}),
  };
  const reject: JsonObject = { approved: { const: false }, reason, ...(rejectData ? { payload: rejectData } : {}) };
  const branch = (properties: JsonObject, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
  return {
    oneOf: [branch(approve, approveData ? ['approved', 'payload'] : ['approved']), branch(reject, rejectData ? ['approved', 'payload'] : ['approved'])],
  };
}

/** The `grant` an approval may carry, in the scopes the tool allows, a 'time' one no longer than maxMs (docs/approvals.md, "Scoped grants"). */
function grantJsonSchema(scopes: GrantScope[], maxMs: number): JsonObject | undefined {
  if (scopes.length === 0) return undefined;
  const longest = formatDuration(maxMs);
  const branches: Record<GrantScope, JsonObject> = {
    session: { type: 'object', properties: { scope: { const: 'session' } }, required: ['scope'], additionalProperties: false },
    time: {
      type: 'object',
      properties: {
        scope: { const: 'time' },
        // `maximum` bounds the milliseconds form; the description says it for the text form too.
        for: { type: ['string', 'number'], exclusiveMinimum: 0, maximum: maxMs, description: `How long: '1h', '30m', or milliseconds; at most ${longest}.` },
      },
      required: ['scope', 'for'],
      additionalProperties: false,
    },
    arguments: {
      type: 'object',
      properties: { scope: { const: 'arguments' }, match: { type: 'object', description: 'Later calls whose arguments have these values run.' } },
      required: ['scope', 'match'],
      additionalProperties: false,
    },
  };
  return { description: 'Approve and allow later calls of this tool in this session without asking.', oneOf: scopes.map((scope) => branches[scope]) };
}

/**
 * True for a tool approval that takes a yes or a no and nothing else: the tool allows no
 * edits and has no approval data, so no branch of its responseSchema has `editedArgs` or
 * `payload`. Wires may describe such an answer more narrowly (docs/internals/wires.md, "TanStack AI's
 * client").
 */
export function isYesOrNoApproval(record: InterruptRecord): boolean {
  const branches = (Array.isArray(record.responseSchema.oneOf) ? record.responseSchema.oneOf : [record.responseSchema]) as JsonObject[];
  return (
    record.reason === 'tool_call' &&
    branches.every((branch) => !('editedArgs' in ((branch.properties ?? {}) as JsonObject)) && !('payload' in ((branch.properties ?? {}) as JsonObject)))
  );
}

/** The pause of a tool that called requestInput(): the person's answer is the response. */
export function buildInputInterrupt(
  agent: DeepAgent,
  call: ToolCall,
  runId: string,
  request: { message: string; responseSchema: JsonObject; url?: string; declineToTool?: true; resume?: JsonObject },
  scope?: string,
): InterruptRecord {
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
    ...(request.url ? { url: request.url } : {}),
    ...(request.declineToTool ? { declineToTool: true as const } : {}),
    ...(request.resume ? { resume: request.resume } : {}),
  };
}

export function isExpired(record: InterruptRecord, now = Date.now()): boolean {
  return record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now;
}
