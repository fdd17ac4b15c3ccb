// A conversation's status as a person reads it, and the badge tone that goes with it. An idle
// conversation has none: nothing is going on.
import type { SessionStatus } from '@/server/store';
import type { BadgeTone } from './ui/badge';

const LABEL: Record<Exclude<SessionStatus, 'idle'>, { label: string; tone: BadgeTone }> = {
  running: { label: 'Working', tone: 'progress' },
  interrupted: { label: 'Needs approval', tone: 'attention' },
  awaiting_tools: { label: 'Waiting for the browser', tone: 'progress' },
  error: { label: 'Failed', tone: 'danger' },
};

export function sessionStatusLabel(status: SessionStatus): { label: string; tone: BadgeTone } | null {
  return status === 'idle' ? null : LABEL[status];
}
