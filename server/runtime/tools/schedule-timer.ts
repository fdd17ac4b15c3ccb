// What handlerContext().session.schedule does (docs/turn-control.md, "Timers"): a timer row beside
// the session's log, named by the tool's key so a repeat is harmless; the scheduler fires it
// (turn-control/timers.ts).
import type { ChatMessage } from '../../store/messages';
import { LimitReachedError, type EventStore } from '../../store/types';
import { parseDuration } from '../../authoring/duration';
import { maxPendingTimers } from '../session';
import type { TimerWhen } from './handler-context';
import { ToolError } from './tool-error';

function fireTime(when: TimerWhen, now = Date.now()): Date {
  if ('delay' in when) return new Date(now + (typeof when.delay === 'number' ? when.delay : parseDuration(when.delay, 'delay')));
  const at = new Date(when.at);
  if (Number.isNaN(at.getTime())) throw new ToolError(`schedule(): "${String(when.at)}" is not a time.`);
  return at;
}

/** What handlerContext().session.schedule does for a durable session. */
export async function scheduleTimer(store: EventStore, sessionId: string, key: string, when: TimerWhen, messages: ChatMessage[]) {
  if (!key) throw new ToolError('schedule(): name the timer with a key (e.g. the toolCallId): it is what makes a repeat harmless.');
  const fireAt = fireTime(when);
  // A repeat of a key is harmless and not counted; a new timer must fit (each one fires a run). The
  // store counts and writes as one step: parallel calls of a step cannot pass the limit together.
  const limit = maxPendingTimers();
  try {
    const { timer, created } = await store.scheduleTimer({ sessionId, key, fireAt, messages, limit });
    return { id: timer.id, fireAt: timer.fireAt.toISOString(), created };
  } catch (error) {
    if (!LimitReachedError.is(error)) throw error;
    throw new ToolError(
      `schedule(): this session has ${error.held} timers waiting, the most it may have (STACKBONE_MAX_TIMERS_PER_SESSION); nothing was scheduled.`,
    );
  }
}
