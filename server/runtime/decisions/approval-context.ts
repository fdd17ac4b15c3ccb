// What an approver needs to know about a gated call beyond its arguments (docs/hitl.md, "Approval
// context"): the tool's `context(input, ctx)` looks it up — the order's customer, item and total
// for a refund — once, when the pause opens, and the facts are recorded with the interrupt, so the
// card, Studio, the emailed page, Slack and the webhook all show the same, however late they read.
import type { DeepAgent } from '../../authoring';
import type { ApprovalFacts } from '../../store/pauses';
import type { ToolCall } from '../../store/messages';
import { approvalOptions } from './approval-policy';

/** How long a lookup may take before the pause opens without it. */
const CONTEXT_TIMEOUT_MS = 5_000;
/** What a pause keeps of it: enough for a card, never a page. */
const MAX_FACTS = 12;
const MAX_TEXT = 300;

/**
 * The tool's context for this call, cut to size; undefined when it has none, or its lookup
 * failed or took too long — the pause opens all the same, without it (as for a describe() that throws).
 */
export async function approvalContextOf(
  agent: DeepAgent,
  call: ToolCall,
  context: { sessionId: string; signal: AbortSignal },
): Promise<ApprovalFacts | undefined> {
  const lookUp = approvalOptions(agent, call.name).context;
  if (!lookUp) return undefined;
  const timeout = AbortSignal.timeout(CONTEXT_TIMEOUT_MS);
  const signal = AbortSignal.any([context.signal, timeout]);
  try {
    const found = await Promise.race([
      lookUp(call.input, { agent: agent.name, sessionId: context.sessionId, signal }),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    return found ? cut(found) : undefined;
  } catch (error) {
    console.warn(`[stackbone] the approval context of ${call.name} was not found; the approval opens without it: ${(error as Error)?.message ?? error}`);
    return undefined;
  }
}

function cut(found: ApprovalFacts): ApprovalFacts | undefined {
  const text = (value: unknown) => String(value ?? '').slice(0, MAX_TEXT);
  const facts = (Array.isArray(found.facts) ? found.facts : [])
    .map((fact) => ({ label: text(fact?.label), value: text(fact?.value) }))
    .filter((fact) => fact.label && fact.value)
    .slice(0, MAX_FACTS);
  const risk = found.risk ? text(found.risk) : undefined;
  if (facts.length === 0 && !risk) return undefined;
  return { facts, ...(risk ? { risk } : {}) };
}
