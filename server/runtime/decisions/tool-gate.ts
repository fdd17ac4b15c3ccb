// What may happen to a server-side tool call now, given the thread's interrupts and the
// agent's policy: run it (with a decision's edits, data and the answers it asked for), answer
// it as denied or cancelled, wait for a pending decision, or ask a person (docs/hitl.md).
import type { ModelMessage } from 'ai';
import type { ApprovalPolicy, DeepAgent } from '../../authoring';
import type { ToolCall } from '../../store/messages';
import { approvalOptions, PolicyFailure, policyFor } from './approval-policy';
import { gateBrokenOnPurpose } from './broken-gate';
import { grantForCall } from './grants';
import { receiptProblem } from './receipt-check';
import type { SessionView } from '../session';
import type { InputAnswer, ToolApproval, ToolKind } from '../tools';
import { logFailure } from '../errors';

export type ToolGate =
  | { action: 'run'; editedArgs?: unknown; payload?: unknown; answers: InputAnswer[]; approval?: ToolApproval }
  /** `expired`: nobody decided in time, and `reason` says so in full. */
  | { action: 'deny'; reason?: string; payload?: unknown; declined?: string; expired?: true }
  /** Not run, and no person said so: the policy forbids it, cannot be evaluated, or the turn cannot wait for a decision. */
  | { action: 'refuse'; content: string }
  | { action: 'cancel' }
  | { action: 'ask' }
  | { action: 'wait' };

export interface GateOptions {
  view: SessionView;
  agent: DeepAgent;
  call: ToolCall;
  kind: ToolKind;
  sessionId: string;
  /** Whose session it is: a grant counts only while its maker may still approve calls in it. */
  sessionOwnerId: string;
  /** The run the call is made in. */
  runId: string;
  durable: boolean;
  /** The conversation the call was made in, for a needsApproval function that reads it. */
  history?: () => ModelMessage[];
  /** What a stateless caller should do to get a turn that can wait for a person (the chat wires name their header). */
  durableHint?: string;
}

export async function gateToolCall(options: GateOptions): Promise<ToolGate> {
  const { view, agent, call, kind } = options;
  const interrupts = Object.values(view.interrupts).filter((state) => state.record.toolCallId === call.id);
  const latest = interrupts.at(-1);
  if (latest) {
    const decision = latest.decision;
    if (!decision) return { action: 'wait' };
    if (decision.status === 'cancelled') return { action: 'cancel' };
    // A question whose decline goes back to its tool (an MCP elicitation) runs the tool again, which is told.
    const declinedToTool = latest.record.reason === 'input_required' && latest.record.declineToTool === true;
    if (decision.status === 'denied' && !declinedToTool) {
      return {
        action: 'deny',
        reason: decision.reason,
        payload: decision.payload,
        ...(latest.record.reason === 'input_required' ? { declined: latest.record.message } : {}),
        ...(decision.expired ? { expired: true as const } : {}),
      };
    }
    const approvalState = interrupts.find((state) => state.record.reason === 'tool_call');
    const approval = approvalState?.decision;
    if (approvalState && approval) {
      const problem = await receiptProblem(approvalState.record, approval, approval.editedArgs ?? call.input);
      if (problem) {
        const reference = logFailure(`the approval receipt of ${call.name} (call ${call.id}, session ${options.sessionId}) does not hold`, new Error(problem));
        return { action: 'refuse', content: `Not run: the signed receipt of its approval does not hold (${problem}; ref ${reference}).` };
      }
    }
    const answers = interrupts
      .filter((state) => state.record.reason === 'input_required')
      .map(({ record, decision: answer }): InputAnswer => ({
        ...(answer?.status === 'denied'
          ? { status: 'declined' as const, ...(answer.reason ? { reason: answer.reason } : {}) }
          : { status: 'answered' as const, value: answer?.payload }),
        ...(record.resume ? { resume: record.resume } : {}),
      }));
    const how: ToolApproval | undefined =
      approval && (approval.expired ? { by: 'expiry', reason: approval.reason ?? 'No one decided in time.' } : { by: 'person' });
    return { action: 'run', editedArgs: approval?.editedArgs, payload: approval?.payload, answers, ...(how ? { approval: how } : {}) };
  }
  if (kind !== 'backend') return { action: 'run', answers: [] };
  if (gateBrokenOnPurpose(agent)) return { action: 'run', answers: [] };
  // A call that started inside a grant and is carried out again (a crash) runs under it again.
  const startedUnder = view.grantedCalls[call.id];
  if (startedUnder) return { action: 'run', answers: [], approval: { by: 'grant', grantId: startedUnder } };
  let policy: ApprovalPolicy;
  try {
    policy = await policyFor(agent, call, { sessionId: options.sessionId, history: options.history });
  } catch (error) {
    // Fail closed: a call whose policy cannot say whether it needs a person does not run.
    const reference = logFailure(
      `the approval policy of ${call.name} (call ${call.id}, session ${options.sessionId}) failed`,
      error instanceof PolicyFailure ? error.cause : error,
    );
    return {
      action: 'refuse',
      content: `Not run: the approval policy of ${call.name} could not be evaluated, so the call was refused (ref ${reference}; the details are in the server's log).`,
    };
  }
  if (policy === 'approved') return { action: 'run', answers: [] };
  if (policy === 'denied') return { action: 'refuse', content: `Not run: ${call.name} is not allowed for this call by the agent's policy.` };
  // A stateless turn cannot pause (docs/internals/wires.md, "Stateless turns"): it runs the tool, or refuses
  // it if the agent says so. A call kept for key holders is never run without one's decision.
  if (!options.durable) {
    const keyHolders = approvalOptions(agent, call.name).approvers !== 'session-owner';
    if (keyHolders || agent.statelessApproval === 'deny') {
      const hint = options.durableHint ? ` ${options.durableHint}` : '';
      return {
        action: 'refuse',
        content: `Not run: ${call.name} needs a person's approval${keyHolders ? ' by a key holder' : ''}, and a stateless request cannot wait for one.${hint}`,
      };
    }
    return { action: 'run', answers: [] };
  }
  // Inside an active grant of this session, no person is asked again (docs/approvals.md, "Scoped grants").
  const grant = grantForCall(view, agent, call, { sessionOwnerId: options.sessionOwnerId, runId: options.runId });
  if (grant) return { action: 'run', answers: [], approval: { by: 'grant', grantId: grant.id } };
  return { action: 'ask' };
}

/** The tool result a denial becomes: the model is told why, in the person's words and in the rejection's data. */
export function denialResult(gate: Extract<ToolGate, { action: 'deny' }>): { content: string; output: unknown } {
  const details = `${gate.reason ? ` Reason: ${gate.reason}` : ''}${gate.payload !== undefined ? ` Details: ${JSON.stringify(gate.payload)}` : ''}`;
  // Nobody denied an expired call: the reason says what happened (expiry.ts), and no more.
  if (gate.expired)
    return { content: gate.reason ?? 'No one decided in time; the call did not run.', output: { denied: true, expired: true, reason: gate.reason ?? null } };
  const content = gate.declined ? `The user declined to answer "${gate.declined}".${details}` : `The user denied this call; it did not run.${details}`;
  return { content, output: { denied: true, reason: gate.reason ?? null, ...(gate.payload !== undefined ? { payload: gate.payload } : {}) } };
}
