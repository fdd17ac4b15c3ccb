// The tool gate's last check before an approved call runs (docs/approvals.md, "Signed receipts"):
// the decision's signed receipt must be this server's, for this interrupt and call, an approval,
// and for exactly the arguments about to run (their RFC 8785 digest). A log changed after the
// decision — other arguments, an approval that was a rejection — fails here and nothing runs.
import type { Decision, InterruptRecord } from '../../store/pauses';
import { argsDigest, receiptKeys, verifyReceipt } from '../../receipts';

/** Why the receipt does not let the call run, or undefined when it does (or the decision predates receipts). */
export async function receiptProblem(record: InterruptRecord, decision: Decision, runs: unknown): Promise<string | undefined> {
  const { receipt } = decision;
  if (receipt === undefined) return undefined;
  const keys = await receiptKeys();
  const check = await verifyReceipt(receipt, { keys: keys.published }, { args: runs });
  let claims = check.ok ? check.claims : undefined;
  if (!check.ok) {
    // A server with no key of its own signs with one made per process: an earlier process's
    // receipt cannot be verified here, so only what it says is checked (docs/approvals.md).
    const unlisted = check.problem.startsWith('signed by a key the key set does not list');
    if (!(keys.ephemeral && unlisted && check.claims)) return check.problem;
    claims = check.claims;
    if (claims.argsDigest !== argsDigest(runs)) return 'the arguments are not the ones the receipt approved (their digest differs)';
  }
  if (claims!.interruptId !== record.id || claims!.toolCallId !== record.toolCallId) return `the receipt is for another call (${claims!.interruptId})`;
  if (claims!.kind !== 'decision' || claims!.decision !== 'approved')
    return `the receipt does not approve the call (it says ${claims!.kind} ${claims!.decision})`;
  return undefined;
}
