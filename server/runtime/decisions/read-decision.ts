// Reading a person's answer to an interrupt. A decision arrives in one of two shapes: in
// runtime terms (approve / deny / cancel, as the HTTP API and the CLI send it), or as a
// response in the shape the interrupt's responseSchema describes (as AG-UI and TanStack AI
// clients send it: {approved, reason?, editedArgs?, payload?}, or the answer itself for a
// question). Both become one DecisionRequest here; whether it is acceptable is
// validate-decision.ts, and whether the thread still waits on it is plan-decisions.ts.
import type { InterruptRecord } from '../../store/pauses';
import type { JsonObject } from '../../store/messages';
import { parseDuration } from '../../authoring/duration';
import { Refusal } from '../errors';

/** A decision in runtime terms, before validation. */
export interface DecisionRequest {
  interruptId: string;
  status: 'approved' | 'denied' | 'cancelled';
  editedArgs?: unknown;
  payload?: unknown;
  reason?: string;
  /** "Approve, and allow this from now on", as sent: readGrant reads it (docs/approvals.md, "Scoped grants"). */
  grant?: unknown;
}

/** A grant as an approver asks for it, read by readGrant; a 'time' grant's `ms` is its `for`, read (positive and finite). */
export type GrantRequest = { scope: 'session' } | { scope: 'time'; for: string | number; ms: number } | { scope: 'arguments'; match: JsonObject };

/** A response in the shape the interrupt's responseSchema describes (an AG-UI resume entry). */
export interface InterruptResponse {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

export type DecisionInput = DecisionRequest | InterruptResponse;

/** The parts of an approval's response; any other top-level field is refused. */
const RESPONSE_KEYS = new Set(['approved', 'reason', 'editedArgs', 'payload', 'grant']);

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
  const parts = (response ?? {}) as { approved?: unknown; reason?: unknown; editedArgs?: unknown; payload?: unknown; grant?: unknown };
  const custom = Object.keys(parts).find((key) => !RESPONSE_KEYS.has(key));
  if (custom !== undefined)
    throw invalid(
      `"${custom}" is not part of a decision ({approved, reason?, editedArgs?, payload?, grant?}); data for the tool's approvalSchema goes under payload.`,
    );
  const approved = parts.approved ?? (parts.editedArgs !== undefined ? true : undefined);
  if (typeof approved !== 'boolean') throw invalid('approved must be true or false.');
  if (parts.reason !== undefined && typeof parts.reason !== 'string') throw invalid('reason must be a string.');
  return {
    interruptId,
    status: approved ? 'approved' : 'denied',
    ...(parts.editedArgs !== undefined ? { editedArgs: parts.editedArgs } : {}),
    ...(parts.payload !== undefined ? { payload: parts.payload } : {}),
    ...(typeof parts.reason === 'string' ? { reason: parts.reason } : {}),
    ...(parts.grant !== undefined ? { grant: parts.grant } : {}),
  };
}

/**
 * The one reading of a grant, whichever path the decision came by: `{scope: 'session'}`,
 * `{scope: 'time', for: '1h'}` or `{scope: 'arguments', match: {…}}`. Whether the tool allows
 * it, and for how long, is grants.ts.
 */
export function readGrant(value: unknown, interruptId: string): GrantRequest {
  const invalid = (message: string) => new Refusal('grant_invalid', `The grant with ${interruptId}: ${message}`, { interruptId });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`it must be {scope: 'session' | 'time' | 'arguments', …}.`);
  const grant = value as Record<string, unknown>;
  const allowOnly = (...keys: string[]) => {
    const extra = Object.keys(grant).find((key) => !keys.includes(key));
    if (extra !== undefined) throw invalid(`"${extra}" is not part of a '${String(grant.scope)}' grant.`);
  };
  switch (grant.scope) {
    case 'session':
      allowOnly('scope');
      return { scope: 'session' };
    case 'time': {
      allowOnly('scope', 'for');
      if (typeof grant.for !== 'string' && typeof grant.for !== 'number') throw invalid(`a 'time' grant says for how long: for: '1h'.`);
      let ms: number;
      try {
        ms = parseDuration(grant.for, 'for');
      } catch (error) {
        throw invalid((error as Error).message);
      }
      if (!(ms > 0) || !Number.isFinite(ms)) throw invalid('for must be a positive, finite duration.');
      return { scope: 'time', for: grant.for, ms };
    }
    case 'arguments': {
      allowOnly('scope', 'match');
      const match = grant.match;
      if (typeof match !== 'object' || match === null || Array.isArray(match) || Object.keys(match).length === 0)
        throw invalid(`an 'arguments' grant names the argument values it allows: match: {<argument>: <value>, …}.`);
      return { scope: 'arguments', match: match as JsonObject };
    }
    default:
      throw invalid(`scope must be 'session', 'time' or 'arguments', not ${JSON.stringify(grant.scope)}.`);
  }
}
