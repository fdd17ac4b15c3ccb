// Which tool calls need a person, and what a decision on one may carry: the agent's
// toolApproval normalized, the policy for a call, the schema of each decision's data, and the
// hash that refuses a decision once the tool changed (docs/hitl.md, "Policies", "Decision data").
import { own } from './own';
import { createHash } from 'node:crypto';
import { asSchema, type Tool } from 'ai';
import { z } from 'zod';
import type { ApprovalPolicy, ApprovalSchemas, Approvers, DeepAgent, ToolApprovalOptions } from '../define';
import { parseDuration } from './duration';
import type { JsonObject, ToolCall } from '../events';
import { agentTools, validateToolInput } from './tools';

export interface NormalizedApproval {
  policy: ToolApprovalOptions['policy'];
  allowEdit: boolean;
  /** As declared: one schema for either decision, or one per decision. */
  approvalSchema?: z.ZodType | ApprovalSchemas;
  describe?: (input: any) => string;
  ttlMs?: number;
  onExpire: 'deny' | 'approve';
  approvers: Approvers;
}

export function approvalOptions(agent: DeepAgent, toolName: string): NormalizedApproval {
  const spec = own(agent.toolApproval, toolName);
  if (spec === undefined) return { policy: 'approved', allowEdit: false, onExpire: 'deny', approvers: 'session-owner' };
  if (typeof spec === 'string' || typeof spec === 'function') return { policy: spec, allowEdit: false, onExpire: 'deny', approvers: 'session-owner' };
  return {
    policy: spec.policy,
    allowEdit: spec.allowEdit ?? false,
    approvalSchema: spec.approvalSchema,
    describe: spec.describe,
    ttlMs: spec.ttl === undefined ? undefined : parseDuration(spec.ttl, 'ttl'),
    onExpire: spec.onExpire ?? 'deny',
    approvers: spec.approvers ?? 'session-owner',
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

/** A tool's input as JSON Schema (what an edit must satisfy). */
export function inputJsonSchema(definition: Tool): JsonObject {
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

/** The agent (root or subagent) that owns a tool named in an interrupt. */
export function findToolAgent(root: DeepAgent, name: string): DeepAgent | undefined {
  if (root.name === name) return root;
  for (const subagent of root.subagents) {
    const found = findToolAgent(subagent, name);
    if (found) return found;
  }
  return undefined;
}
