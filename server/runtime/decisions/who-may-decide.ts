// Who may decide an interrupt (docs/security.md, "Approvers"; docs/approvals.md, "Quorum and
// separation of duties", "A link counts as a person"). The session's owner decides its own
// interrupts; a tool declared `approvers: 'key-holders'` is approved or rejected only by a key
// holder — who, for such an interrupt in a browser's session, may decide it though the session is
// not theirs: a billing desk approving a customer's request. A tool declared with a list
// (`['key:finance']`, `['role:finance']`, `['members']`) is approved or rejected only by the keys,
// the users with a role, or the signed-up users it names, in whoever's session it waits
// (docs/users-and-roles.md). With `requesterMayApprove: false` the session's owner — who asked — may not approve or
// reject it. Cancelling (withdrawing the request) is open to the session's owner — the customer
// may take back their own request — and to whoever may decide it (docs/hitl.md: a withdrawal is
// always accepted). A signed link decides as the person its recipient is bound to, under every
// one of these rules; a recipient bound to nobody decides only what any key holder alone may.
import { boundApprover } from '../../credentials/approver-emails';
import { ADMIN_ROLE, readApproverEntries, readApproverEntry } from '../../credentials/approver-entries';
import type { DecisionActor, DecisionStatus, InterruptRecord } from '../../store/pauses';
import type { Person } from '../../store/types';
import { isOpenDevMode, keyLabelOf } from '../../credentials/open-dev-mode';
import { Refusal } from '../errors';

/** Whether an owner id is a browser's own random identity (keyed mode, STACKBONE_WEB_ACCESS=open). */
export function isBrowserOwner(ownerId: string): boolean {
  return ownerId.startsWith('browser:');
}

/**
 * Whether a credential is shown the approvals waiting in others' sessions that it may be asked to
 * decide (the inbox's `key-holders` part): a key's, and a signed-up user's — which of them it may
 * decide, mayDecide says.
 */
export function seesOthersApprovals(credential: DecisionActor['credential']): boolean {
  return credential === 'key' || credential === 'user';
}

/**
 * The actor of a decision made through a signed link minted for `recipient`: the person the
 * recipient is bound to — a key by STACKBONE_APPROVER_EMAILS, with that key's owner id and name,
 * else `user`, the signed-up user with that address (the store's personByAddress), with their
 * owner id and roles — or, bound to nobody, the recipient alone.
 */
export function linkActor(recipient: string, user?: Person | null): DecisionActor {
  const key = boundApprover(recipient);
  if (key) return { source: 'link', credential: 'link', recipient, ownerId: key.ownerId, keyName: key.keyName };
  return { source: 'link', credential: 'link', recipient, ...(user ? { ownerId: user.ownerId, roles: user.roles } : {}) };
}

/**
 * The rights a decider holds: its own credential's, except a link's. A link bound to a key holds
 * that key's; in open dev mode — one machine, no keys, every request the local owner — a link
 * holds the local owner's (its recipient still votes as a person of its own, so the two-person
 * flows can be tried alone); bound to nobody, a link holds only its own, `link`.
 */
function rightsOf(by: DecisionActor): DecisionActor['credential'] {
  // A guest is a browser that has not signed up: it holds what a browser's own identity holds.
  if (by.credential === 'guest') return 'browser';
  if (by.credential !== 'link') return by.credential;
  if (isOpenDevMode()) return 'local';
  // Bound to a key: the key's rights; to a signed-up user (linkActor gives them their roles): theirs.
  if (by.ownerId?.startsWith('key:')) return 'key';
  return by.ownerId !== undefined && by.roles !== undefined ? 'user' : 'link';
}

/**
 * The identity a vote counts as: two votes by one identity are one approver. A key's owner id
 * (every surface a key reaches — its header, the app's cookie, a link mailed to an address bound
 * to it — is the same owner); a link bound to nobody, its recipient. The one place that says so:
 * a new kind of decider names its identity here.
 */
export function voterIdentity(by: DecisionActor): string | undefined {
  if (by.ownerId !== undefined) return by.ownerId;
  return by.credential === 'link' && by.recipient ? `link:${by.recipient}` : undefined;
}

/**
 * Whether a list of approvers names the decider: `key:<word>` a key labelled with that name or
 * in that group, `role:<word>` a user holding that role, `members` any signed-up user.
 */
function matchesApprovers(approvers: readonly string[], by: DecisionActor): boolean {
  const rights = rightsOf(by);
  const entries = readApproverEntries(approvers);
  if (rights === 'user') return entries.some((entry) => entry.kind === 'members' || (entry.kind === 'role' && (by.roles ?? []).includes(entry.role)));
  const label = rights === 'key' && by.ownerId !== undefined ? keyLabelOf(by.ownerId) : undefined;
  if (!label) return false;
  return entries.some((entry) => entry.kind === 'key' && (label.name === entry.word || label.groups.includes(entry.word)));
}

/** Whether `by` may see and decide an interrupt of a session owned by sessionOwnerId. */
export function mayDecide(record: Pick<InterruptRecord, 'approvers' | 'quorum'>, sessionOwnerId: string, by: DecisionActor): boolean {
  const rights = rightsOf(by);
  if (rights === 'local' || (by.ownerId !== undefined && by.ownerId === sessionOwnerId)) return true;
  // A recipient bound to nobody is no person: it may stand in for a key holder where any one
  // key holder decides alone, never for the session's owner, a named list or one of a quorum.
  if (rights === 'link') return record.approvers === 'key-holders' && (record.quorum ?? 1) === 1;
  if (Array.isArray(record.approvers)) return matchesApprovers(record.approvers, by);
  return record.approvers === 'key-holders' && holdsKeyRights(by, rights) && isBrowserOwner(sessionOwnerId);
}

/**
 * Whether a decider may do what any key holder may: a key, or an admin — a deployment's
 * operator, who runs the desk signed in as a person (docs/users-and-roles.md, "Roles"). Never
 * any member: on a public chat anyone may sign up, a customer too.
 */
function holdsKeyRights(by: DecisionActor, rights: DecisionActor['credential']): boolean {
  return rights === 'key' || (rights === 'user' && (by.roles ?? []).includes(ADMIN_ROLE));
}

/**
 * Whether a caller that may not decide an interrupt is still told who does (403
 * `approver_required`) rather than that there is none (404): any key holder, for one kept for
 * a list of keys — every key is an operator's (docs/security.md, "Approvers").
 */
export function toldWhoDecides(record: Pick<InterruptRecord, 'approvers'>, by: DecisionActor): boolean {
  return Array.isArray(record.approvers) && (rightsOf(by) === 'key' || rightsOf(by) === 'user');
}

/** Who a list of approvers is, in words: `role:finance (a user with the role "finance")`. */
function describeApprovers(named: readonly string[]): string {
  return named
    .map((entry) => {
      const read = readApproverEntry(entry);
      if (read?.kind === 'members') return 'members (any signed-up user)';
      if (read?.kind === 'role') return `${entry} (a user with the role "${read.role}")`;
      return `${entry} (a key so labelled in STACKBONE_API_KEYS)`;
    })
    .join(', ');
}

/**
 * Refuses a decision by someone the interrupt does not let make it: the requester approving or
 * rejecting when it says they may not, a browser for one kept for key holders, anyone but the
 * keys a list names (who may not withdraw it either, unless the session is theirs), a link whose
 * recipient is bound to nobody where a person must decide. In open dev mode the local owner holds
 * every key's right, as for key holders.
 */
export function checkApprover(record: InterruptRecord, status: DecisionStatus, by: DecisionActor, sessionOwnerId: string): void {
  const refuse = (code: 'approver_required' | 'requester_may_not_approve', message: string) => new Refusal(code, message, { interruptId: record.id });
  const rights = rightsOf(by);
  const named = Array.isArray(record.approvers) ? record.approvers : undefined;
  const decidedBy = named ? describeApprovers(named) : undefined;
  if (named && rights !== 'local' && !mayDecide(record, sessionOwnerId, by)) {
    throw refuse('approver_required', `${record.toolName} is decided by ${decidedBy}, not by this caller.`);
  }
  if (status === 'cancelled') return;
  if (record.requesterMayApprove === false && voterIdentity(by) === sessionOwnerId) {
    throw refuse(
      'requester_may_not_approve',
      `${record.toolName} was asked for in your session, and who asks may not approve or reject it: another approver decides. You can cancel the request.`,
    );
  }
  if (rights === 'link' && !mayDecide(record, sessionOwnerId, by)) {
    throw refuse(
      'approver_required',
      `This link was sent to an address bound to no approver (STACKBONE_APPROVER_EMAILS), and ${record.toolName} needs a person of its own to decide it: decide it in Studio or with the CLI.`,
    );
  }
  if (named) {
    if (rights === 'local' || matchesApprovers(named, by)) return;
    throw refuse('approver_required', `${record.toolName} is decided by ${decidedBy}, not by this caller. You can cancel the request.`);
  }
  if (record.approvers !== 'key-holders' || rights !== 'browser') return;
  throw refuse(
    'approver_required',
    `${record.toolName} is decided by a key holder (an admin in Studio, or a key with the CLI or /api/hitl), not from this browser. You can cancel the request.`,
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

/**
 * Whether a link minted for `recipient` could approve an interrupt of a session owned by
 * sessionOwnerId: a notice carries Approve and Reject links only for such a recipient, and tells
 * the others for their information (docs/approvals.md, "A link counts as a person").
 */
export function linkMayDecide(record: InterruptRecord, recipient: string, sessionOwnerId: string, user?: Person | null): boolean {
  return mayApprove(record, sessionOwnerId, linkActor(recipient, user));
}
