// Seed snippet, verbatim but for its imports: shared/reference/a2-tools-and-approvals.md,
// "Interrupt and retry" (app/agent/[sessionId]/turn-controls.tsx).
'use client';
import { useAgent } from '@/components/hooks/useAgent';
import type { assistant } from '../assistant';

export function TurnControls({ sessionId }: { sessionId: string }) {
  const { state, status, stop, retry } = useAgent<typeof assistant>({
    api: '/api/agent',
    id: sessionId,
  });

  if (status === 'failed') return <button onClick={() => void retry()}>Retry</button>;
  return state.active ? <button onClick={() => void stop()}>Stop</button> : null;
}
