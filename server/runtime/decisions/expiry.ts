// When nobody decides in time (docs/approvals.md, "Escalation and reminders"):
// what the expiry of a session's open interrupts writes now — an escalation for one that still
// escalates, its default decision for one past its last escalation — and the reminders due.
// Pure over the view and the clock; whoever appends them (the recovery sweep, a turn's start, a
// decision) does so with the log's compare-and-set, so two processes write them once.
import type { Decision } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { InterruptState, SessionView } from '../session';
import { isExpired } from './interrupt-record';

/** The events an expiry writes now, oldest interrupt first. */
export function expiryEvents(view: SessionView, now = Date.now()): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (const state of Object.values(view.interrupts)) {
    if (state.decision || !isExpired(state.record, now)) continue;
    const { escalation } = state.record;
    const level = (state.escalations?.length ?? 0) + 1;
    if (escalation && level <= escalation.times) {
      // The people it escalates to get the whole extension, even when the sweep comes late (a restart).
      const expiresAt = new Date(now + escalation.extendByMs).toISOString();
      events.push({
        type: 'interrupt_escalated',
        interruptId: state.record.id,
        level,
        expiresAt,
        to: escalation.to,
        interrupt: { ...state.record, expiresAt },
      });
    } else {
      events.push({ type: 'interrupt_decided', interruptId: state.record.id, decision: expiryDecision(state) });
    }
  }
  return events;
}

/** Reminders due now: once per interrupt, while it is open and not yet expired. */
export function dueReminders(view: SessionView, now = Date.now()): SessionEvent[] {
  return Object.values(view.interrupts)
    .filter((state) => !state.decision && !state.remindedAt && state.record.remindAt !== undefined && Date.parse(state.record.remindAt) <= now)
    .filter((state) => !isExpired(state.record, now))
    .map((state) => ({ type: 'interrupt_reminded', interruptId: state.record.id, interrupt: state.record }));
}

/**
 * An expired interrupt's default action, saying honestly what happened: how long it waited, who
 * it was escalated to, and that nobody decided — the model reads the reason (tool-gate.ts).
 */
function expiryDecision(state: InterruptState): Decision {
  const { record } = state;
  const waited = record.expiresAt ? Date.parse(record.expiresAt) - Date.parse(state.openedAt) : 0;
  const escalations = state.escalations ?? [];
  const to = [...new Set(escalations.flatMap((step) => step.to))];
  const escalated = escalations.length === 0 ? '' : ` (escalated ${timesWord(escalations.length)}${to.length ? ` to ${to.join(', ')}` : ''})`;
  const nobody = `No one ${record.reason === 'input_required' ? 'answered' : 'decided'} within ${formatWait(waited)}${escalated}`;
  if (record.reason === 'input_required')
    return { status: 'denied', reason: `${nobody}; the question went unanswered.`, expired: true, by: { source: 'expiry' } };
  return record.onExpire === 'approve'
    ? { status: 'approved', reason: `${nobody}; the call was approved by its policy on expiry.`, expired: true, by: { source: 'expiry' } }
    : { status: 'denied', reason: `${nobody}; the call was denied and did not run.`, expired: true, by: { source: 'expiry' } };
}

function timesWord(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/** A wait as a person says it, to a tenth of its unit: '24h', '90m', '2s', '3d'. */
export function formatWait(ms: number): string {
  // Days only from two on: "within 24h" reads better than "within 1d". A bit under a unit is
  // that unit: an expiry lands a few milliseconds after its opening's timestamp was taken.
  const units: [string, number, number][] = [
    ['d', 86_400_000, 2],
    ['h', 3_600_000, 1],
    ['m', 60_000, 1],
    ['s', 1000, 0],
  ];
  const [unit, size] = units.find(([, size, least]) => ms >= size * least * 0.95 && ms >= size * 0.95) ?? units.at(-1)!;
  return `${Math.max(0, Math.round((ms / size) * 10) / 10)}${unit}`;
}

/**
 * When the session's open interrupts next need the server: the earliest expiry, or reminder not
 * yet recorded (ms since the epoch); undefined when none waits on the clock. A waker asks for
 * that time (docs/deploy.md, "Due work").
 */
export function nextDeadline(view: SessionView): number | undefined {
  const times = Object.values(view.interrupts)
    .filter((state) => !state.decision)
    .flatMap((state) => [state.record.expiresAt, state.remindedAt ? undefined : state.record.remindAt])
    .filter((time): time is string => time !== undefined)
    .map((time) => Date.parse(time));
  return times.length > 0 ? Math.min(...times) : undefined;
}
