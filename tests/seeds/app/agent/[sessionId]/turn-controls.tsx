// Seed 004 (experimental-a2, "Tools and approvals"), "Interrupt and retry": the snippet as its
// document writes it, byte for byte below this comment; its imports resolve through
// tests/seeds/tsconfig.json to this app's names (docs/seed-names.md).
'use client'
import { useAgent } from 'experimental-a2/ai/react'
import type { assistant } from '@/server/assistant'

export function TurnControls({ sessionId }: { sessionId: string }) {
  const { state, status, stop, retry } = useAgent<typeof assistant>({
    api: '/api/agent',
    id: sessionId,
  })

  if (status === 'failed')
    return <button onClick={() => void retry()}>Retry</button>
  return state.active ? (
    <button onClick={() => void stop()}>Stop</button>
  ) : null
}
