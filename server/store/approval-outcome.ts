// What a decision made of its approval (docs/approvals.md): the one rule Studio's metrics
// (docs/studio.md, "Approval metrics") and the telemetry's (docs/observability.md, "Metrics")
// count by. An expiry's default action is the expiry's, whatever it did; a withdrawal is neither
// yes nor no; an approval that changed the arguments is an edit.
import type { Decision } from './pauses';

export const APPROVAL_OUTCOMES = ['approved', 'edited', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalOutcome = (typeof APPROVAL_OUTCOMES)[number];

export function approvalOutcome(decision: Pick<Decision, 'status' | 'editedArgs' | 'expired'>): ApprovalOutcome {
  if (decision.expired) return 'expired';
  if (decision.status === 'cancelled') return 'cancelled';
  if (decision.status === 'denied') return 'rejected';
  return decision.editedArgs !== undefined ? 'edited' : 'approved';
}
