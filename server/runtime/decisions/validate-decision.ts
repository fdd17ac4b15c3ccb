// Is this decision acceptable for this interrupt, against the agent as it is now? Expiry, a
// changed tool, edits, decision data, answers to questions: each checked here and nowhere else
// (docs/hitl.md). Returns the decision to record, its edits and data parsed by their schemas.
import { z } from 'zod';
import type { DeepAgent } from '../../authoring';
import {
  approvalOptions,
  decisionDataSchema,
  findToolAgent,
  PolicyFailure,
  policyFor,
  quorumFor,
  toolSchemaHash,
  type NormalizedApproval,
} from './approval-policy';
import type { FoundCode } from '../../error-codes';
import type { Decision, DecisionActor, InterruptRecord } from '../../store/pauses';
import { checkApprover } from './who-may-decide';
import { Refusal } from '../errors';
import type { DecisionRequest } from './read-decision';
import { isExpired } from './interrupt-record';
import { agentTools, loadMcpTools, validateToolInput } from '../tools';
import { zodFromJsonSchema, describeIssue } from '../common';

/**
 * Validates one decision against its interrupt and the agent as it is now. Returns the
 * decision to record (edits and payload parsed by their schemas).
 */
export async function validateDecision(
  agent: DeepAgent,
  record: InterruptRecord,
  request: DecisionRequest,
  by: DecisionActor,
  sessionOwnerId: string,
  now = Date.now(),
): Promise<Decision> {
  const reject = (code: FoundCode, message: string) => new Refusal(code, message, { interruptId: record.id });
  // Withdrawing a request is always possible: nothing runs, so neither expiry nor a tool that
  // changed since the pause stands in its way — or a thread could be left waiting forever.
  // (By whoever may decide it: the session's owner, or an approver it names.)
  if (request.status === 'cancelled') {
    checkApprover(record, 'cancelled', by, sessionOwnerId);
    return { status: 'cancelled', by };
  }
  if (isExpired(record, now)) throw reject('interrupt_expired', `Interrupt ${record.id} expired at ${record.expiresAt}.`);
  const owner = findToolAgent(agent, record.agent);
  // An MCP tool is checked against its server's listing as this process has it (docs/mcp.md).
  if (owner) await loadMcpTools(owner);
  if (!owner || !agentTools(owner)[record.toolName] || toolSchemaHash(owner, record.toolName) !== record.schemaHash) {
    throw reject('tool_schema_changed', `Tool ${record.toolName} changed since interrupt ${record.id} was raised; it cannot be resumed. Ask the agent again.`);
  }
  if (record.reason === 'input_required') return validateAnswer(record, request, by);
  checkApprover(record, request.status, by, sessionOwnerId);
  const options = approvalOptions(owner, record.toolName);
  if (request.status === 'denied') {
    if (request.editedArgs !== undefined) throw reject('resume_invalid', `A rejection cannot carry editedArgs (interrupt ${record.id}).`);
    const payload = decisionData(record, decisionDataSchema(options, 'reject'), request.payload);
    return { status: 'denied', ...(request.reason ? { reason: request.reason } : {}), ...(request.payload !== undefined ? { payload } : {}), by };
  }
  const decision: Decision = { status: 'approved', by };
  if (request.editedArgs !== undefined) {
    // As the interrupt was opened: a call that needs a quorum is not edited (docs/approvals.md).
    if (!options.allowEdit || !record.allowedDecisions.includes('edit'))
      throw reject('edit_not_allowed', `${record.toolName} does not allow edited arguments for this call (interrupt ${record.id}).`);
    const checked = await validateToolInput(agentTools(owner)[record.toolName]!, request.editedArgs);
    if (!checked.ok) throw reject('edited_args_invalid', `editedArgs for ${record.toolName} are invalid: ${checked.error}`);
    await checkEditCounted(owner, record, checked.value, options);
    decision.editedArgs = checked.value;
  }
  const payload = decisionData(record, decisionDataSchema(options, 'approve'), request.payload);
  if (payload !== undefined) decision.payload = payload;
  return decision;
}

/**
 * An edit is a new call, counted again (docs/approvals.md, "Edits are counted again"): the
 * tool's policy and its quorum run on the edited arguments. A call the policy denies is refused;
 * one that needs more approvers than the interrupt was opened for is refused too — an edit is one
 * approver's, and never decides alone what needs several (`edit_needs_quorum`). A policy or quorum
 * that cannot be evaluated on the edit refuses it: fail closed.
 */
async function checkEditCounted(owner: DeepAgent, record: InterruptRecord, editedArgs: unknown, options: NormalizedApproval): Promise<void> {
  const call = { id: record.toolCallId, name: record.toolName, input: editedArgs };
  const refuse = (code: FoundCode, message: string) => new Refusal(code, message, { interruptId: record.id });
  let policy: string;
  let quorum: number;
  try {
    policy = await policyFor(owner, call);
    quorum = quorumFor(options, call);
  } catch (error) {
    if (!(error instanceof PolicyFailure)) throw error;
    throw refuse('edit_not_allowed', `The approval policy of ${record.toolName} could not be evaluated on the edited arguments, so the edit is refused.`);
  }
  if (policy === 'denied') throw refuse('edit_not_allowed', `The approval policy of ${record.toolName} denies the edited arguments: the edit is refused.`);
  const asked = record.quorum ?? 1;
  if (quorum > asked) {
    throw refuse(
      'edit_needs_quorum',
      `With the edited arguments ${record.toolName} needs ${quorum} approvers, and this request was opened for ${asked}: an edit is one approver's. Approve it as asked, or reject it and ask for the new call.`,
    );
  }
}

/** A decision's data checked against its schema (defaults applied); as given when there is none. */
function decisionData(record: InterruptRecord, schema: z.ZodType | undefined, payload: unknown): unknown {
  if (!schema) return payload;
  const parsed = schema.safeParse(payload ?? {});
  if (!parsed.success) {
    throw new Refusal('payload_invalid', `payload for ${record.toolName} is invalid: ${describeIssue(parsed.error, '(payload)')}`, { interruptId: record.id });
  }
  return parsed.data;
}

/** An answer to requested input: validated against the schema the tool asked with. */
function validateAnswer(record: InterruptRecord, request: DecisionRequest, by: DecisionActor): Decision {
  if (request.editedArgs !== undefined) {
    throw new Refusal('resume_invalid', `Interrupt ${record.id} asks for input; it takes no editedArgs.`, { interruptId: record.id });
  }
  if (request.status === 'denied') return { status: 'denied', ...(request.reason ? { reason: request.reason } : {}), by };
  const parsed = zodFromJsonSchema(record.responseSchema).safeParse(request.payload);
  if (!parsed.success) {
    throw new Refusal('payload_invalid', `The answer to "${record.message}" is invalid: ${describeIssue(parsed.error, '(answer)')}`, {
      interruptId: record.id,
    });
  }
  return { status: 'approved', payload: parsed.data, by };
}
