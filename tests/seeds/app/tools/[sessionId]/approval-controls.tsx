// Seed 004 (experimental-a2, "Tools and approvals"), "Answer approvals": the snippet as its
// document writes it, byte for byte below this comment; its imports resolve through
// tests/seeds/tsconfig.json to this app's names (docs/seed-names.md).
'use client'
import { useAgent } from 'experimental-a2/ai/react'
import type { toolsAssistant } from '@/server/with-tools'

export function ApprovalControls({ sessionId }: { sessionId: string }) {
  const { state, approve, deny } = useAgent<typeof toolsAssistant>({
    api: '/api/tools',
    id: sessionId,
  })

  return state.pendingApprovals.map((approval) => (
    <div key={approval.approvalId}>
      <span>Allow tool call {approval.toolCallId}?</span>
      <button onClick={() => void approve(approval)}>Allow</button>
      <button
        onClick={() => void deny(approval, { reason: 'Denied by the user' })}
      >
        Deny
      </button>
    </div>
  ))
}
