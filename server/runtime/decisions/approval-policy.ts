// Which tool calls need a person, and what a decision on one may carry: the agent's
// toolApproval normalized, the policy for a call, the schema of each decision's data, and the
// hash that refuses a decision once the tool changed (docs/hitl.md, "Policies", "Decision data").
import { jsonSchemaOf, own, plainJsonSchema } from '../common';
import { createHash } from 'node:crypto';
import { asSchema, type ModelMessage, type Tool } from 'ai';
import { z } from 'zod';
import type { ApprovalPolicy, ApprovalSchemas, Approvers, DeepAgent, ToolApprovalOptions } from '../../authoring';
import { parseDuration } from '../../authoring/duration';
import type { EscalationPolicy, GrantScope } from '../../store/pauses';
import type { JsonObject, ToolCall } from '../../store/messages';
import { agentTools, mcpServerOf, validateToolInput } from '../tools';

export interface NormalizedApproval {
  policy: ToolApprovalOptions['policy'];
  allowEdit: boolean;
  /** As declared: one schema for either decision, or one per decision. */
  approvalSchema?: z.ZodType | ApprovalSchemas;
  describe?: (input: any) => string;
  context?: ToolApprovalOptions['context'];
  ttlMs?: number;
  /** What the last expiry does (after any escalations). */
  onExpire: 'deny' | 'approve';
  escalation?: EscalationPolicy;
  remindBeforeMs?: number;
  /** The scopes an approver may grant (docs/approvals.md, "Scoped grants"); none by default. */
  grantScopes: GrantScope[];
  /** The longest a 'time' grant may last, in milliseconds: the tool's maxGrantTime, or 30 days. */
  maxGrantTimeMs: number;
  approvers: Approvers;
  /** Distinct approvers needed, or a function of the call's arguments saying so (docs/approvals.md, "Quorum and separation of duties"). */
  quorum: number | ((input: any) => number);
  requesterMayApprove: boolean;
  rejectOn: 'first' | 'quorum';
}

const ALL_GRANT_SCOPES: GrantScope[] = ['session', 'time', 'arguments'];

/** A 'time' grant's longest life unless its tool says (docs/approvals.md, "Scoped grants"): a standing approval is never forever. */
const DEFAULT_MAX_GRANT_TIME_MS = 30 * 86_400_000;

const BY_OWNER = {
  allowEdit: false,
  onExpire: 'deny',
  grantScopes: [] as GrantScope[],
  maxGrantTimeMs: DEFAULT_MAX_GRANT_TIME_MS,
  approvers: 'session-owner',
  quorum: 1,
  requesterMayApprove: true,
  rejectOn: 'first',
} as const;

export function approvalOptions(agent: DeepAgent, toolName: string): NormalizedApproval {
  const spec = own(agent.toolApproval, toolName) ?? serverWide(agent, toolName);
  if (spec === undefined) return { policy: 'approved', ...BY_OWNER };
  if (typeof spec === 'string' || typeof spec === 'function') return { policy: spec, ...BY_OWNER };
  const escalates = spec.onExpire === 'escalate' && spec.escalate !== undefined;
  return {
    policy: spec.policy,
    allowEdit: spec.allowEdit ?? false,
    approvalSchema: spec.approvalSchema,
    describe: spec.describe,
    context: spec.context,
    ttlMs: spec.ttl === undefined ? undefined : parseDuration(spec.ttl, 'ttl'),
    onExpire: escalates ? (spec.escalate!.then ?? 'deny') : spec.onExpire === 'approve' ? 'approve' : 'deny',
    ...(escalates
      ? {
          escalation: {
            to: spec.escalate!.to ?? [],
            extendByMs: parseDuration(spec.escalate!.extendBy, 'escalate.extendBy'),
            times: spec.escalate!.times ?? 1,
          },
        }
      : {}),
    ...(spec.remindBefore !== undefined ? { remindBeforeMs: parseDuration(spec.remindBefore, 'remindBefore') } : {}),
    // A quorum needs its people for every call: no standing approval stands in for them.
    grantScopes:
      typeof spec.quorum === 'function' || (spec.quorum ?? 1) > 1
        ? []
        : spec.grants === true
          ? ALL_GRANT_SCOPES
          : Array.isArray(spec.grants)
            ? spec.grants
            : [],
    maxGrantTimeMs: spec.maxGrantTime === undefined ? DEFAULT_MAX_GRANT_TIME_MS : parseDuration(spec.maxGrantTime, 'maxGrantTime'),
    approvers: spec.approvers ?? 'session-owner',
    quorum: spec.quorum ?? 1,
    requesterMayApprove: spec.requesterMayApprove ?? true,
    rejectOn: spec.rejectOn ?? 'first',
  };
}

/** The approvers a call needs: the tool's quorum, or what its function says for these arguments (a whole number, at least 1). */
export function quorumFor(options: NormalizedApproval, call: ToolCall): number {
  if (typeof options.quorum === 'number') return options.quorum;
  const quorum: unknown = options.quorum(call.input);
  if (typeof quorum !== 'number' || !Number.isSafeInteger(quorum) || quorum < 1)
    throw new PolicyFailure(call.name, new Error(`the quorum function answered ${JSON.stringify(quorum)}, not a whole number of at least 1`));
  return quorum;
}

/** An MCP tool's policy by its server's wildcard (`'docs_*'`), when its full name has none (docs/mcp.md). */
function serverWide(agent: DeepAgent, toolName: string) {
  const server = mcpServerOf(agent, toolName);
  return server && own(agent.toolApproval, `${server.name}_*`);
}

/** How strict a policy is: when the agent's toolApproval and the tool's own needsApproval disagree, the stricter wins. */
const STRICTNESS: Record<ApprovalPolicy, number> = { approved: 0, 'user-approval': 1, denied: 2 };

function stricter(a: ApprovalPolicy, b: ApprovalPolicy): ApprovalPolicy {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/** A policy that could not be evaluated: it threw, or answered something that is not a policy. The call does not run. */
export class PolicyFailure extends Error {
  constructor(
    readonly toolName: string,
    readonly cause: unknown,
  ) {
    super(`The approval policy of ${toolName} could not be evaluated.`);
    this.name = 'PolicyFailure';
  }
}

/**
 * The policy for one call: the agent's `toolApproval` and the tool's own AI SDK `needsApproval`
 * (a boolean, or a function of the input) together, the stricter winning (docs/hitl.md,
 * "Policies"). A policy function decides on the input as the tool would receive it (its
 * schema's defaults and coercions applied), not on the model's raw arguments: `{}` with
 * `amount` defaulting to 500 is a call for 500. Deterministic over the input: it runs again on
 * recovery. Throws PolicyFailure when a policy throws or answers something that is not a
 * policy: the caller fails closed.
 */
export async function policyFor(
  agent: DeepAgent,
  call: ToolCall,
  context: { sessionId?: string; history?: () => ModelMessage[] } = {},
): Promise<ApprovalPolicy> {
  const { policy } = approvalOptions(agent, call.name);
  const definition = own(agentTools(agent), call.name);
  const needsApproval: unknown = definition?.needsApproval;
  let input = call.input;
  if (typeof policy === 'function' || typeof needsApproval === 'function') {
    const validated = definition ? await validateToolInput(definition, call.input) : null;
    // A call its tool would refuse is not put to a person: it runs into its validation error,
    // which the model reads, and the tool's code never runs.
    if (!validated?.ok) return 'approved';
    input = validated.value;
  }
  try {
    const byAgent = checked(call.name, typeof policy === 'function' ? await policy(input, { agent: agent.name, sessionId: context.sessionId }) : policy);
    const byTool =
      needsApproval === undefined
        ? 'approved'
        : checkedBoolean(
            call.name,
            typeof needsApproval === 'function'
              ? await needsApproval(input, { toolCallId: call.id, messages: context.history?.() ?? [], context: undefined })
              : needsApproval,
          );
    return stricter(byAgent, byTool);
  } catch (error) {
    throw error instanceof PolicyFailure ? error : new PolicyFailure(call.name, error);
  }
}

function checked(toolName: string, policy: unknown): ApprovalPolicy {
  if (policy === 'approved' || policy === 'user-approval' || policy === 'denied') return policy;
  throw new PolicyFailure(toolName, new Error(`the policy answered ${JSON.stringify(policy)}, not 'approved', 'user-approval' or 'denied'`));
}

function checkedBoolean(toolName: string, needed: unknown): ApprovalPolicy {
  if (typeof needed !== 'boolean') throw new PolicyFailure(toolName, new Error(`needsApproval answered ${JSON.stringify(needed)}, not a boolean`));
  return needed ? 'user-approval' : 'approved';
}

// Converted once per schema, read-only thereafter: every page load lists every agent's tools
// (server/web/agents.ts), and converting them anew was a sixth of a page's time.
const inputJsonSchemas = new WeakMap<object, JsonObject>();

/** A tool's input as JSON Schema (what an edit must satisfy); frozen, as it is shared. */
export function inputJsonSchema(definition: Tool): JsonObject {
  const schema: unknown = definition.inputSchema;
  const key = (typeof schema === 'object' || typeof schema === 'function') && schema !== null ? schema : undefined;
  const cached = key && inputJsonSchemas.get(key);
  if (cached) return cached;
  const converted = deepFreeze(plainJsonSchema(asSchema(definition.inputSchema).jsonSchema) as JsonObject);
  if (key) inputJsonSchemas.set(key, converted);
  return converted;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The schema of a decision's data: the one schema, or that decision's own. */
export function decisionDataSchema(options: NormalizedApproval, decision: 'approve' | 'reject'): z.ZodType | undefined {
  const schema = options.approvalSchema;
  return schema instanceof z.ZodType ? schema : schema?.[decision];
}

function approvalJsonSchema(options: NormalizedApproval): JsonObject | undefined {
  const schema = options.approvalSchema;
  if (!schema) return undefined;
  if (schema instanceof z.ZodType) return jsonSchemaOf(schema) as JsonObject;
  const json = (branch?: z.ZodType) => (branch ? (jsonSchemaOf(branch) as JsonObject) : null);
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
