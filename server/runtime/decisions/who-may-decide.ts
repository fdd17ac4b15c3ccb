// Who may decide an interrupt (docs/security.md, "Approvers"; docs/approvals.md, "Quorum and
// separation of duties"). The session's owner decides its own interrupts; a tool declared
// `approvers: 'key-holders'` is approved or rejected only by a key holder — who, for such an
// interrupt in a browser's session, may decide it though the session is not theirs: the support
// desk approving a customer's refund. A tool declared with a list (`['key:finance']`) is
// approved or rejected only by the keys it names, in whoever's session it waits. With
// `requesterMayApprove: false` the session's owner — who asked — may not approve or reject it.
// Cancelling (withdrawing the request) is open to the session's owner — the customer may take
// back their own request — and to whoever may decide it (docs/hitl.md: a withdrawal is always accepted).
import type { DecisionActor, DecisionStatus, InterruptRecord } from '../../events';
import { keyLabelOf } from '../../open-dev-mode';
import { Refusal } from '../errors';

/** Whether an owner id is a browser's own random identity (keyed mode, STACKBONE_WEB_ACCESS=open). */
export function isBrowserOwner(ownerId: string): boolean {
  return ownerId.startsWith('browser:');
}

/**
 * The identity a vote counts as: two votes by one identity are one approver. A key's owner id
 * (every surface a key reaches — its header, the app's cookie — is the same owner). The one
 * place that says so: a new kind of decider names its identity here.
 */
export function voterIdentity(by: DecisionActor): string | undefined {
  // A link's holder is whom the server minted it for, whoever's browser opened it.
  if (by.credential === 'link') return by.recipient && `link:${by.recipient}`;
  return by.ownerId;
}

/** Whether a key's owner id is one a list of approvers names: `key:<word>` matches a key labelled with that name or in that group. */
function matchesApprovers(approvers: readonly string[], ownerId: string | undefined): boolean {
  const label = ownerId === undefined ? undefined : keyLabelOf(ownerId);
  if (!label) return false;
  return approvers.some((entry) => {
    const word = entry.slice('key:'.length);
    return label.name === word || label.groups.includes(word);
  });
}

/** Whether `by` may see and decide an interrupt of a session owned by sessionOwnerId. */
export function mayDecide(record: Pick<InterruptRecord, 'approvers'>, sessionOwnerId: string, by: DecisionActor): boolean {
  // A `link` credential exists only once a signed link for this very interrupt was verified
  // (turn-control/decide-by-link.ts): the server minted it for an approver it was configured to
  // tell (docs/approvals.md, "Notifications and one-click links").
  if (by.ownerId === sessionOwnerId || by.credential === 'link') return true;
  if (Array.isArray(record.approvers)) return by.credential === 'key' && matchesApprovers(record.approvers, by.ownerId);
  return record.approvers === 'key-holders' && by.credential === 'key' && isBrowserOwner(sessionOwnerId);
}

/**
 * Whether a caller that may not decide an interrupt is still told who does (403
 * `approver_required`) rather than that there is none (404): any key holder, for one kept for
 * a list of keys — every key is an operator's (docs/security.md, "Approvers").
 */
export function toldWhoDecides(record: Pick<InterruptRecord, 'approvers'>, by: DecisionActor): boolean {
  return Array.isArray(record.approvers) && by.credential === 'key';
}

/**
 * Refuses a decision by someone the interrupt does not let make it: the requester approving or
 * rejecting when it says they may not, a browser for one kept for key holders, anyone but the
 * keys a list names (who may not withdraw it either, unless the session is theirs). In open dev
 * mode the local owner holds every key's right, as for key holders.
 */
export function checkApprover(record: InterruptRecord, status: DecisionStatus, by: DecisionActor, sessionOwnerId: string): void {
  const refuse = (code: 'approver_required' | 'requester_may_not_approve', message: string) => new Refusal(code, message, { interruptId: record.id });
  const named = Array.isArray(record.approvers) ? record.approvers : undefined;
  if (named && by.credential !== 'local' && !mayDecide(record, sessionOwnerId, by)) {
    throw refuse('approver_required', `${record.toolName} is decided by ${named.join(', ')} (a key so labelled in STACKBONE_API_KEYS), not by this caller.`);
  }
  if (status === 'cancelled') return;
  if (record.requesterMayApprove === false && voterIdentity(by) === sessionOwnerId) {
    throw refuse(
      'requester_may_not_approve',
      `${record.toolName} was asked for in your session, and who asks may not approve or reject it: another approver decides. You can cancel the request.`,
    );
  }
  if (named) {
    // A link is sent only to whom the agent's notify routing names for this tool: its approvers.
    if (by.credential === 'local' || by.credential === 'link' || (by.credential === 'key' && matchesApprovers(named, by.ownerId))) return;
    throw refuse(
      'approver_required',
      `${record.toolName} is decided by ${named.join(', ')} (a key so labelled in STACKBONE_API_KEYS), not by this caller. You can cancel the request.`,
    );
  }
  if (record.approvers !== 'key-holders' || by.credential !== 'browser') return;
  throw refuse(
    'approver_required',
    `${record.toolName} is decided by a key holder (Studio signed in with a key, the CLI or /api/hitl), not from this browser. You can cancel the request.`,
  );
}

/**
 * Whether `by` may approve the interrupt: see it (mayDecide) and pass checkApprover, the rules a
 * decision meets. A grant counts only while its maker still may approve the calls it covers
 * (docs/approvals.md, "Scoped grants"): this is how grants.ts asks, so the rule stays here.
 */
export function mayApprove(record: InterruptRecord, sessionOwnerId: string, by: DecisionActor): boolean {
  if (!mayDecide(record, sessionOwnerId, by)) return false;
  try {
    checkApprover(record, 'approved', by, sessionOwnerId);
    return true;
  } catch (error) {
    if (error instanceof Refusal) return false;
    throw error;
  }
}
