// Seed snippet, verbatim but for its imports: shared/reference/a2-tools-and-approvals.md,
// "Answer approvals" (app/tools/[sessionId]/approval-controls.tsx).
'use client';
import { useAgent } from '@/components/hooks/useAgent';
import type { toolsAssistant } from '../with-tools';

export function ApprovalControls({ sessionId }: { sessionId: string }) {
  const { state, approve, deny } = useAgent<typeof toolsAssistant>({
    api: '/api/tools',
    id: sessionId,
  });

  return state.pendingApprovals.map((approval) => (
    <div key={approval.approvalId}>
      <span>Allow tool call {approval.toolCallId}?</span>
      <button onClick={() => void approve(approval)}>Allow</button>
      <button onClick={() => void deny(approval, { reason: 'Denied by the user' })}>Deny</button>
    </div>
  ));
}
