// Reading a person's answer to an interrupt. A decision arrives in one of two shapes: in
// runtime terms (approve / deny / cancel, as the HTTP API and the CLI send it), or as a
// response in the shape the interrupt's responseSchema describes (as AG-UI and TanStack AI
// clients send it: {approved, reason?, editedArgs?, payload?}, or the answer itself for a
// question). Both become one DecisionRequest here; whether it is acceptable is
// validate-decision.ts, and whether the thread still waits on it is plan-decisions.ts.
import type { InterruptRecord } from '../../events';
import { Refusal } from '../errors';

/** A decision in runtime terms, before validation. */
export interface DecisionRequest {
  interruptId: string;
  status: 'approved' | 'denied' | 'cancelled';
  editedArgs?: unknown;
  payload?: unknown;
  reason?: string;
}

/** A response in the shape the interrupt's responseSchema describes (an AG-UI resume entry). */
export interface InterruptResponse {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

export type DecisionInput = DecisionRequest | InterruptResponse;

/** The parts of an approval's response; any other top-level field is refused. */
const RESPONSE_KEYS = new Set(['approved', 'reason', 'editedArgs', 'payload']);

/** One decision in runtime terms, whichever shape it came in. `record` is the interrupt it answers, when known. */
export function readDecision(input: DecisionInput, record: InterruptRecord | undefined): DecisionRequest {
  if (input.status === 'approved' || input.status === 'denied') return input;
  if (input.status === 'cancelled') return { interruptId: input.interruptId, status: 'cancelled' };
  // A question's response is the answer itself.
  if (record?.reason === 'input_required') return { interruptId: input.interruptId, status: 'approved', payload: input.payload };
  return readApproval(input as InterruptResponse);
}

/** `{approved, reason?, editedArgs?, payload?}`; `{editedArgs}` alone approves with edits. */
function readApproval({ interruptId, payload: response }: InterruptResponse): DecisionRequest {
  const invalid = (message: string) => new Refusal('resume_invalid', `Response to ${interruptId}: ${message}`, { interruptId });
  if (typeof response !== 'object' || response === null || Array.isArray(response)) {
    if (response !== undefined) throw invalid('it must be an object like {approved: true}.');
  }
  const parts = (response ?? {}) as { approved?: unknown; reason?: unknown; editedArgs?: unknown; payload?: unknown };
  const custom = Object.keys(parts).find((key) => !RESPONSE_KEYS.has(key));
  if (custom !== undefined)
    throw invalid(`"${custom}" is not part of a decision ({approved, reason?, editedArgs?, payload?}); data for the tool's approvalSchema goes under payload.`);
  const approved = parts.approved ?? (parts.editedArgs !== undefined ? true : undefined);
  if (typeof approved !== 'boolean') throw invalid('approved must be true or false.');
  if (parts.reason !== undefined && typeof parts.reason !== 'string') throw invalid('reason must be a string.');
  return {
    interruptId,
    status: approved ? 'approved' : 'denied',
    ...(parts.editedArgs !== undefined ? { editedArgs: parts.editedArgs } : {}),
    ...(parts.payload !== undefined ? { payload: parts.payload } : {}),
    ...(typeof parts.reason === 'string' ? { reason: parts.reason } : {}),
  };
}
