// What a tool call needs before it runs, and who decides it (docs/hitl.md, "Policies";
// docs/approvals.md): the `toolApproval` options of defineDeepAgent, and their checks — a policy,
// approvers, a quorum, an expiry, grants that could never work as declared stop the agent's
// definition, not someone's run.
import type { z } from 'zod';
import { parseDuration } from './duration';
import { readApproverEntry } from '../credentials/approver-entries';
import type { ApprovalFacts, GrantScope } from '../store/pauses';

/**
 * What a tool call needs before it may run: nothing ('approved'), a person's decision
 * ('user-approval'), or it never runs ('denied': the model is told it is not allowed).
 */
export type ApprovalPolicy = 'user-approval' | 'approved' | 'denied';

/**
 * A policy may be a function of the input. It must be deterministic: it runs at the model
 * step and again on recovery, and both must agree. One that throws, or answers anything but a
 * policy, fails closed: the call does not run (docs/hitl.md, "Policies").
 */
export type PolicyFunction<Input = any> = (input: Input, context: { agent: string; sessionId?: string }) => ApprovalPolicy | PromiseLike<ApprovalPolicy>;

export interface ToolApprovalOptions<Input = any> {
  policy: ApprovalPolicy | PolicyFunction<Input>;
  /** The human may replace the arguments (validated against the tool's input schema). */
  allowEdit?: boolean;
  /**
   * Data the person gives with the decision, validated and kept in the log (docs/hitl.md):
   * one schema for whichever decision is made, or one per decision. An approval's data is
   * handed to the tool (`handlerContext().event.payload`); a rejection's is told to the model
   * with the denial.
   */
  approvalSchema?: z.ZodType | ApprovalSchemas;
  /** One line the approval card shows, worded from the arguments alone. */
  describe?: (input: Input) => string;
  /**
   * What the approver needs to know that the arguments do not say, looked up once when the pause
   * opens (the order's customer, item and total for a refund): facts as label and value, and a
   * risk note. Shown by the card, Studio, the emailed page, Slack and the webhook alike. A lookup
   * that throws or takes over 5 s opens the pause without it (docs/hitl.md, "Approval context").
   */
  context?: (
    input: Input,
    context: { agent: string; sessionId: string; signal: AbortSignal },
  ) => ApprovalFacts | undefined | PromiseLike<ApprovalFacts | undefined>;
  /** How long the decision may wait: '30s', '15m', '24h', '7d' or milliseconds. */
  ttl?: string | number;
  /**
   * What happens when the TTL runs out: deny (the default), approve — only for low-risk calls,
   * as nobody looked at it — or escalate: tell `escalate.to` and wait `escalate.extendBy` more,
   * `escalate.times` times, then `escalate.then` (docs/approvals.md).
   */
  onExpire?: 'deny' | 'approve' | 'escalate';
  /** With onExpire 'escalate': who is told next, how much longer it waits, how often, and what then. */
  escalate?: EscalationOptions;
  /** A reminder this long before expiry ('1h', or milliseconds): recorded once, delivered as 'interrupt.reminder'. Needs a ttl. */
  remindBefore?: string | number;
  /**
   * Whether an approver may approve "and allow from now on" within the session: every scope
   * (true), some ('session', 'time', 'arguments'), or none (false, the default). Not with a
   * quorum above 1 (docs/approvals.md, "Scoped grants").
   */
  grants?: boolean | GrantScope[];
  /**
   * The longest a 'time' grant may last ('7d', '12h', or milliseconds; default '30d'): an approval
   * asking for longer is refused as `grant_invalid` (docs/approvals.md, "Scoped grants"). Needs
   * grants that include 'time'.
   */
  maxGrantTime?: string | number;
  /**
   * Who may approve or reject: whoever owns the session (the default), or only a key holder —
   * an API key by header, or a browser signed in with one — so that a chat user cannot approve
   * their own request (docs/security.md, "Approvers"). The session's owner may still cancel.
   */
  approvers?: Approvers;
  /**
   * How many distinct approvers must approve before the call runs (default 1). Each approval
   * short of it is a vote; the one that reaches it decides (docs/approvals.md, "Quorum and
   * separation of duties"). Needs `approvers` other than the session's owner, and no `allowEdit`.
   * A function of the call's arguments sets it per call (`(input) => input.amount > 100 ? 2 : 1`);
   * a call that needs more than one approver then cannot be edited, whatever `allowEdit` says.
   */
  quorum?: number | ((input: Input) => number);
  /**
   * false: the owner of the session that asked may neither approve nor reject the call — only
   * withdraw it (default true). Needs `approvers` other than the session's owner.
   */
  requesterMayApprove?: boolean;
  /** 'first' (the default): one rejection rejects. 'quorum': as many rejections as `quorum` reject; fewer are votes. */
  rejectOn?: 'first' | 'quorum';
}

/**
 * Who decides a gated call: the session's owner, only holders of an API key, or only those a
 * list names — `role:<role>` a user holding that role, `members` any signed-up user
 * (docs/users-and-roles.md), `key:<name-or-group>` a key of STACKBONE_API_KEYS labelled with
 * that name or in that group (`alice:finance=sk-…`; docs/approvals.md, "Quorum and separation of duties").
 */
export type Approvers = 'session-owner' | 'key-holders' | readonly ApproverMatch[];

/** One entry of an approvers list: `role:finance`, `members`, `key:finance`, `key:alice`. */
export type ApproverMatch = `role:${string}` | 'members' | `key:${string}`;

/** An expired approval request's escalation (docs/approvals.md, "Escalation and reminders"). */
export interface EscalationOptions {
  /** Who is told next: e-mail addresses or `key:<name>`; recorded on the event, delivered by the notice channels. */
  to?: string[];
  /** How much longer it waits after each escalation: '1h', or milliseconds. */
  extendBy: string | number;
  /** How many escalations (default 1); the expiry after the last one applies `then`. */
  times?: number;
  /** What the expiry after the last escalation does: deny (the default) or approve. */
  then?: 'deny' | 'approve';
}

/** The data of each decision, when they differ (e.g. a note to approve, a policy reason to reject). */
export interface ApprovalSchemas {
  approve?: z.ZodType;
  reject?: z.ZodType;
}

export type ToolApprovalSpec<Input = any> = ApprovalPolicy | PolicyFunction<Input> | ToolApprovalOptions<Input>;

const POLICIES: readonly ApprovalPolicy[] = ['approved', 'user-approval', 'denied'];

/** One tool's approval spec: its policy is one of the three or a function; its options are checked. */
export function checkToolApproval(agent: string, toolName: string, spec: ToolApprovalSpec | undefined): void {
  const policy = spec && typeof spec === 'object' ? spec.policy : spec;
  if (typeof policy !== 'function' && !POLICIES.includes(policy as ApprovalPolicy)) {
    throw new Error(`Agent "${agent}": the policy of "${toolName}" is ${JSON.stringify(policy)}; use 'approved', 'user-approval', 'denied' or a function.`);
  }
  if (spec && typeof spec === 'object') {
    checkApprovers(agent, toolName, spec);
    checkExpiryAndGrants(agent, toolName, spec);
  }
}

/** Who decides, how many, and whether the requester may: refused when the agent is defined if nobody could ever decide as declared. */
function checkApprovers(agent: string, toolName: string, options: ToolApprovalOptions): void {
  const fail = (message: string) => {
    throw new Error(`Agent "${agent}": toolApproval.${toolName}: ${message}`);
  };
  const { approvers = 'session-owner', quorum = 1, requesterMayApprove = true, rejectOn = 'first' } = options;
  if (Array.isArray(approvers)) {
    if (approvers.length === 0) fail('approvers is an empty list; name at least one: "role:<role>", "members" or "key:<name-or-group>".');
    const bad = approvers.find((entry) => readApproverEntry(entry) === undefined);
    if (bad !== undefined)
      fail(`approvers entry ${JSON.stringify(bad)} is not "role:<role>", "members" or "key:<name-or-group>" (letters, digits, "_", ".", "-").`);
    if (new Set(approvers).size !== approvers.length) fail('approvers names an entry twice.');
  } else if (approvers !== 'session-owner' && approvers !== 'key-holders') {
    fail(`approvers is ${JSON.stringify(approvers)}; use 'session-owner', 'key-holders' or a list like ['role:finance'].`);
  }
  const perCall = typeof quorum === 'function';
  if (!perCall && (!Number.isSafeInteger(quorum) || quorum < 1))
    fail(`quorum is a whole number, at least 1, not ${JSON.stringify(quorum)} (or a function of the call's arguments).`);
  if (typeof requesterMayApprove !== 'boolean') fail('requesterMayApprove is true or false.');
  if (rejectOn !== 'first' && rejectOn !== 'quorum') fail(`rejectOn is 'first' or 'quorum', not ${JSON.stringify(rejectOn)}.`);
  const byOwner = approvers === 'session-owner';
  if (byOwner && (perCall || quorum > 1))
    fail(`a quorum of ${quorum} needs approvers other than the session's owner ('key-holders' or a list): one owner is one approver.`);
  if (byOwner && !requesterMayApprove) fail("requesterMayApprove: false needs approvers other than the session's owner, or nobody could decide.");
  if (!perCall && quorum > 1 && options.allowEdit) fail('allowEdit cannot go with a quorum: every approver must approve the same arguments.');
}

const GRANT_SCOPES: readonly GrantScope[] = ['session', 'time', 'arguments'];

/** Escalation, reminders and grants are checked when the agent is defined (docs/approvals.md). */
function checkExpiryAndGrants(agent: string, toolName: string, options: ToolApprovalOptions) {
  const fail = (message: string) => {
    throw new Error(`Agent "${agent}": toolApproval.${toolName}: ${message}`);
  };
  const { onExpire, escalate, remindBefore, grants, quorum } = options;
  if (onExpire !== undefined && onExpire !== 'deny' && onExpire !== 'approve' && onExpire !== 'escalate') fail(`onExpire is 'deny', 'approve' or 'escalate'.`);
  checkDuration(agent, `toolApproval.${toolName}.ttl`, options.ttl);
  if (onExpire === 'escalate') {
    if (options.ttl === undefined) fail(`onExpire 'escalate' needs a ttl.`);
    if (!escalate || typeof escalate !== 'object') fail(`onExpire 'escalate' needs escalate: { extendBy, to?, times?, then? }.`);
    checkDuration(agent, `toolApproval.${toolName}.escalate.extendBy`, escalate!.extendBy);
    if (escalate!.extendBy === undefined) fail('escalate.extendBy is required.');
    const times = escalate!.times ?? 1;
    if (!Number.isInteger(times) || times < 1 || times > 10) fail(`escalate.times is a whole number from 1 to 10, not ${JSON.stringify(times)}.`);
    if (escalate!.then !== undefined && escalate!.then !== 'deny' && escalate!.then !== 'approve') fail(`escalate.then is 'deny' or 'approve'.`);
    const to = escalate!.to ?? [];
    if (!Array.isArray(to) || to.some((who) => typeof who !== 'string' || !who.trim()))
      fail('escalate.to is a list of recipients (e-mail addresses, key:<name>).');
  } else if (escalate !== undefined) fail(`escalate is given but onExpire is not 'escalate'.`);
  if (remindBefore !== undefined) {
    if (options.ttl === undefined) fail('remindBefore needs a ttl.');
    checkDuration(agent, `toolApproval.${toolName}.remindBefore`, remindBefore);
  }

  if (grants !== undefined && typeof grants !== 'boolean') {
    if (!Array.isArray(grants) || grants.some((scope) => !GRANT_SCOPES.includes(scope)))
      fail(`grants is true, false or a list of 'session', 'time', 'arguments'.`);
  }
  const granting = grants === true || (Array.isArray(grants) && grants.length > 0);
  if (granting && (typeof quorum === 'function' || (quorum ?? 1) > 1))
    fail('a tool that needs a quorum cannot grant standing approvals: each call needs its quorum.');
  if (options.maxGrantTime !== undefined) {
    if (grants !== true && !(Array.isArray(grants) && grants.includes('time'))) fail("maxGrantTime needs grants that include 'time'.");
    checkDuration(agent, `toolApproval.${toolName}.maxGrantTime`, options.maxGrantTime);
    const ms = parseDuration(options.maxGrantTime, 'maxGrantTime');
    // A grant's end must be a date: "no limit" is what the bound exists to rule out.
    if (!(ms > 0) || !Number.isFinite(ms)) fail(`maxGrantTime is a positive, finite duration, not ${JSON.stringify(options.maxGrantTime)}.`);
  }
}

/** A bad duration fails when the agent is defined, not in the middle of someone's run. */
export function checkDuration(agent: string, option: string, value: string | number | undefined) {
  if (value === undefined) return;
  try {
    parseDuration(value, option);
  } catch (error) {
    throw new Error(`Agent "${agent}": ${(error as Error).message}`);
  }
}
