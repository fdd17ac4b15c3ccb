// What may happen to a server-side tool call now, given the thread's interrupts and the
// agent's policy: run it (with a decision's edits, data and the answers it asked for), answer
// it as denied or cancelled, wait for a pending decision, or ask a person (docs/hitl.md).
import type { DeepAgent } from '../define';
import type { ToolCall } from '../events';
import { policyFor } from './approval-policy';
import type { SessionView } from './reduce';
import type { ToolKind } from './tools';

export type ToolGate =
  | { action: 'run'; editedArgs?: unknown; payload?: unknown; answers: unknown[] }
  | { action: 'deny'; reason?: string; payload?: unknown; declined?: string }
  | { action: 'cancel' }
  | { action: 'ask' }
  | { action: 'wait' };

export async function gateToolCall(options: { view: SessionView; agent: DeepAgent; call: ToolCall; kind: ToolKind; sessionId: string; durable: boolean }): Promise<ToolGate> {
  const { view, agent, call, kind } = options;
  const interrupts = Object.values(view.interrupts).filter((state) => state.record.toolCallId === call.id);
  const latest = interrupts.at(-1);
  if (latest) {
    const decision = latest.decision;
    if (!decision) return { action: 'wait' };
    if (decision.status === 'cancelled') return { action: 'cancel' };
    if (decision.status === 'denied') {
      return { action: 'deny', reason: decision.reason, payload: decision.payload, ...(latest.record.reason === 'input_required' ? { declined: latest.record.message } : {}) };
    }
    const approval = interrupts.find((state) => state.record.reason === 'tool_call')?.decision;
    const answers = interrupts.filter((state) => state.record.reason === 'input_required').map((state) => state.decision?.payload);
    return { action: 'run', editedArgs: approval?.editedArgs, payload: approval?.payload, answers };
  }
  if (kind !== 'backend' || (await policyFor(agent, call, options.sessionId)) === 'approved') return { action: 'run', answers: [] };
  // A stateless turn cannot pause (docs/wires.md, "Stateless turns"): it runs the tool, or refuses it if the agent says so.
  if (!options.durable) {
    return agent.statelessApproval === 'deny'
      ? { action: 'deny', reason: 'This tool needs a human approval, which a stateless request cannot wait for.' }
      : { action: 'run', answers: [] };
  }
  return { action: 'ask' };
}

/** The tool result a denial becomes: the model is told why, in the person's words and in the rejection's data. */
export function denialResult(gate: Extract<ToolGate, { action: 'deny' }>): { content: string; output: unknown } {
  const details = `${gate.reason ? ` Reason: ${gate.reason}` : ''}${gate.payload !== undefined ? ` Details: ${JSON.stringify(gate.payload)}` : ''}`;
  const content = gate.declined ? `The user declined to answer "${gate.declined}".${details}` : `The user denied this call; it did not run.${details}`;
  return { content, output: { denied: true, reason: gate.reason ?? null, ...(gate.payload !== undefined ? { payload: gate.payload } : {}) } };
}
