// Scoped grants (docs/approvals.md, "Scoped grants"): an approval that also
// allows later calls of the same tool within the same session — for the session, for a while,
// or for calls with the same values of some arguments. A tool opts in (`toolApproval.grants`);
// a tool that needs a quorum never grants, and a 'time' grant lasts at most the tool's
// maxGrantTime. The gate (tool-gate.ts) runs a call inside an active grant without a pause; a
// revoked or expired grant never applies, nor one whose maker could no longer approve the call.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { DeepAgent } from '../../authoring';
import { formatDuration } from '../../authoring/duration';
import type { Grant, InterruptRecord, DecisionActor } from '../../store/pauses';
import type { JsonObject, ToolCall } from '../../store/messages';
import { Refusal } from '../errors';
import type { GrantState, SessionView } from '../session';
import { agentTools } from '../tools';
import { approvalOptions, inputJsonSchema } from './approval-policy';
import { buildInterrupt } from './interrupt-record';
import { readGrant, type DecisionRequest } from './read-decision';
import { mayApprove } from './who-may-decide';

/** The last instant a Date can hold: 8.64e15 ms after 1970 (ECMAScript's time value range). */
const LAST_DATE_MS = 8.64e15;

/**
 * The grant an approval carries, checked against its tool as it is now; undefined when it
 * carries none. Throws Refusal (having written nothing) for a grant with a rejection or an
 * answer, in a scope the tool does not allow, or of the wrong shape.
 */
export function grantOfDecision(owner: DeepAgent, record: InterruptRecord, request: DecisionRequest, by: DecisionActor, now = Date.now()): Grant | undefined {
  if (request.grant === undefined) return undefined;
  const refuse = (message: string) => new Refusal('grant_not_allowed', message, { interruptId: record.id });
  if (request.status !== 'approved') throw refuse(`Only an approval can come with a grant (interrupt ${record.id}).`);
  if (record.reason !== 'tool_call') throw refuse(`An answer to a question cannot come with a grant (interrupt ${record.id}).`);
  const wanted = readGrant(request.grant, record.id);
  const allowed = approvalOptions(owner, record.toolName).grantScopes;
  if (!allowed.includes(wanted.scope)) {
    throw refuse(
      allowed.length === 0
        ? `${record.toolName} does not allow grants: each call is approved on its own (toolApproval.${record.toolName}.grants).`
        : `${record.toolName} allows grants for ${allowed.map((scope) => `'${scope}'`).join(', ')}, not '${wanted.scope}'.`,
    );
  }
  const base = { id: `grant_${randomUUID()}`, toolName: record.toolName, agent: record.agent, by, fromInterruptId: record.id };
  if (wanted.scope === 'session') return { ...base, scope: 'session' };
  if (wanted.scope === 'time')
    return { ...base, scope: 'time', expiresAt: timeGrantEnd(record, wanted.ms, approvalOptions(owner, record.toolName).maxGrantTimeMs, now) };
  const definition = agentTools(owner)[record.toolName];
  const properties = definition ? (inputJsonSchema(definition).properties as JsonObject | undefined) : undefined;
  const unknown = properties && Object.keys(wanted.match).find((key) => !Object.hasOwn(properties, key));
  if (unknown)
    throw new Refusal('grant_invalid', `${record.toolName} has no argument "${unknown}" to match (interrupt ${record.id}).`, { interruptId: record.id });
  return { ...base, scope: 'arguments', match: wanted.match };
}

/**
 * A 'time' grant's end, `ms` from now. Longer than the tool's maxGrantTime, or past the last date
 * there is, it is refused (grant_invalid) before any date is built: a Date that cannot hold it
 * would throw, and a grant for ever is not a 'time' grant.
 */
function timeGrantEnd(record: InterruptRecord, ms: number, maxMs: number, now: number): string {
  const refuse = (message: string) => new Refusal('grant_invalid', `The grant with ${record.id}: ${message}`, { interruptId: record.id });
  if (ms > maxMs)
    throw refuse(
      `for is longer than ${record.toolName} allows a grant to last: at most ${formatDuration(maxMs)} (toolApproval.${record.toolName}.maxGrantTime).`,
    );
  if (!(now + ms <= LAST_DATE_MS)) throw refuse('for would end past the last date a grant can hold.');
  return new Date(now + ms).toISOString();
}

/** Whether a grant applies at `now`: not revoked, and not past its end. */
export function grantHolds(state: GrantState, now = Date.now()): boolean {
  if (state.revoked) return false;
  return state.grant.expiresAt === undefined || Date.parse(state.grant.expiresAt) > now;
}

/**
 * The active grant a call runs inside, if any: one of this session, for this agent's tool, that
 * holds now and — for an 'arguments' grant — whose values the call's arguments have. The tool
 * must allow that scope still: a grant does not outlive its tool's opt-in. And its maker must
 * still be able to approve this very call, as the tool's approvers are configured now (a grant
 * stands in for their approval, so it cannot outlive their right to give it): a browser's grant
 * stops covering calls once the tool is kept for key holders, a key's once a list no longer names it.
 */
export function grantForCall(
  view: SessionView,
  agent: DeepAgent,
  call: ToolCall,
  context: { sessionOwnerId: string; runId: string; now?: number },
): Grant | undefined {
  const now = context.now ?? Date.now();
  const allowed = approvalOptions(agent, call.name).grantScopes;
  if (allowed.length === 0) return undefined;
  const covering = Object.values(view.grants)
    .filter((state) => state.grant.toolName === call.name && state.grant.agent === agent.name && allowed.includes(state.grant.scope) && grantHolds(state, now))
    .map((state) => state.grant)
    .filter((grant) => grant.scope !== 'arguments' || matchesArguments(call.input, grant.match ?? {}));
  if (covering.length === 0) return undefined;
  // The approval this call would ask for now; who-may-decide.ts says who could give it.
  const asked = buildInterrupt(agent, call, context.runId, undefined, now);
  return covering.find((grant) => mayApprove(asked, context.sessionOwnerId, grant.by));
}

/** The call's arguments have each of these values (deep-equal, key order aside). */
function matchesArguments(input: unknown, match: JsonObject): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  return Object.entries(match).every(([key, value]) => Object.hasOwn(input, key) && isDeepStrictEqual((input as JsonObject)[key], value));
}
