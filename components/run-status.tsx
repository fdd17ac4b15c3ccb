'use client';
// What the thread is doing, in one badge at one place in the chat's header: Working, Waiting
// for your approval (or answer, or a key holder), Failed, Ready. `data-status` is the store's
// status (idle while a decision is pending: no turn runs); `data-phase` is what the badge says.
import { AlertCircleIcon, CheckIcon, Loader2Icon, ShieldQuestionIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { waitsOnOthers } from './hooks/agent-store';
import type { AgentViewStatus, PendingInterrupt } from './hooks/useAgent';
import { Badge, type BadgeTone } from './ui/badge';
import { useViewer } from './viewer';

type Phase = 'working' | 'approval' | 'answer' | 'key-holder' | 'failed' | 'ready';

const PHASE: Record<Phase, { label: string; tone: BadgeTone; icon: ReactNode }> = {
  working: { label: 'Working', tone: 'progress', icon: <Loader2Icon className="animate-spin" aria-hidden /> },
  approval: { label: 'Waiting for approval', tone: 'attention', icon: <ShieldQuestionIcon aria-hidden /> },
  answer: { label: 'Waiting for your answer', tone: 'attention', icon: <ShieldQuestionIcon aria-hidden /> },
  'key-holder': { label: 'Waiting for the team', tone: 'attention', icon: <ShieldQuestionIcon aria-hidden /> },
  failed: { label: 'Failed', tone: 'danger', icon: <AlertCircleIcon aria-hidden /> },
  ready: { label: 'Ready', tone: 'neutral', icon: <CheckIcon aria-hidden /> },
};

export function RunStatus({ status, interrupts }: { status: AgentViewStatus; interrupts: readonly PendingInterrupt[] }) {
  const viewer = useViewer();
  const phase = phaseOf(status, interrupts, viewer.keyHolder);
  const { label, tone, icon } = PHASE[phase];
  return (
    <Badge tone={tone} className="shrink-0" data-testid="run-status" data-status={status} data-phase={phase}>
      {icon}
      {/* In words on a phone too: an icon alone said nothing to someone new. */}
      <span>{label}</span>
    </Badge>
  );
}

function phaseOf(status: AgentViewStatus, interrupts: readonly PendingInterrupt[], keyHolder: boolean): Phase {
  if (status === 'running') return 'working';
  if (interrupts.length > 0) {
    if (interrupts.every((interrupt) => interrupt.reason === 'input_required')) return 'answer';
    return interrupts.every((interrupt) => waitsOnOthers(interrupt, { keyHolder })) ? 'key-holder' : 'approval';
  }
  if (status === 'error' || status === 'failed') return 'failed';
  return 'ready';
}
