// Who may decide an interrupt (docs/security.md, "Approvers"). The session's owner decides its
// own interrupts; a tool declared `approvers: 'key-holders'` is approved or rejected only by a
// key holder — who, for such an interrupt in a browser's session, may decide it though the
// session is not theirs: the support desk approving a customer's refund. Cancelling (withdrawing
// the request) is open to the session's owner — the customer may take back their own request —
// and to whoever may decide it (docs/hitl.md: a withdrawal is always accepted).
import type { DecisionActor, DecisionStatus, InterruptRecord } from '../../events';
import { Refusal } from '../errors';

/** Whether an owner id is a browser's own random identity (keyed mode, STACKBONE_WEB_ACCESS=open). */
export function isBrowserOwner(ownerId: string): boolean {
  return ownerId.startsWith('browser:');
}

/**
 * Whether `by` may see and decide an interrupt of a session owned by sessionOwnerId. A `link`
 * credential exists only once a signed link for this very interrupt has been verified
 * (notify/link-decision.ts): the server minted it for an approver it was configured to tell
 * (docs/approvals.md, "Notifications and one-click links"), so it decides whoever owns the session
 * and whoever the tool keeps its decisions for.
 */
export function mayDecide(record: Pick<InterruptRecord, 'approvers'>, sessionOwnerId: string, by: DecisionActor): boolean {
  if (by.ownerId === sessionOwnerId || by.credential === 'link') return true;
  return record.approvers === 'key-holders' && by.credential === 'key' && isBrowserOwner(sessionOwnerId);
}

/**
 * Refuses an approval or rejection, by someone who holds no key, of an interrupt kept for key
 * holders. A browser holds none; a signed link does hold the server's word (mayDecide).
 */
export function checkApprover(record: InterruptRecord, status: DecisionStatus, by: DecisionActor): void {
  if (record.approvers !== 'key-holders' || status === 'cancelled' || by.credential !== 'browser') return;
  throw new Refusal(
    'approver_required',
    `${record.toolName} is decided by a key holder (Studio signed in with a key, the CLI or /api/hitl), not from this browser. You can cancel the request.`,
    { interruptId: record.id },
  );
}
