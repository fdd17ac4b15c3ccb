// Timers (docs/turn-control.md, "Timers"): a tool schedules messages for its session; the
// scheduler — an in-process loop under `npm start`, the cron route on hosts without a long-lived
// process — appends them when their time comes and runs the agent on them, as trusted server
// code does. Exactly once: the messages carry the timer's ids, so a timer appended twice (a
// crash between appending and marking it fired, two processes at once) adds them once.
import type { TimerWhen } from '../tools/handler-context';
import type { DeepAgent } from '../../define';
import type { ChatMessage } from '../../events';
import type { EventStore } from '../../store/types';
import { crashPoint } from '../common/crash-point';
import { parseDuration } from '../common/duration';
import { RunRejectedError } from '../errors/run-errors';
import { appendToSession } from './server-session';
import { startBackgroundLoop } from '../common/background-loop';
import { maxPendingTimers } from '../session/session-limits';
import { ToolError } from '../tools/tool-error';

export function fireTime(when: TimerWhen, now = Date.now()): Date {
  if ('delay' in when) return new Date(now + (typeof when.delay === 'number' ? when.delay : parseDuration(when.delay, 'delay')));
  const at = new Date(when.at);
  if (Number.isNaN(at.getTime())) throw new ToolError(`schedule(): "${String(when.at)}" is not a time.`);
  return at;
}

/** What handlerContext().session.schedule does for a durable session. */
export async function scheduleTimer(store: EventStore, sessionId: string, key: string, when: TimerWhen, messages: ChatMessage[]) {
  if (!key) throw new ToolError('schedule(): name the timer with a key (e.g. the toolCallId): it is what makes a repeat harmless.');
  const fireAt = fireTime(when);
  // A repeat of a key is harmless and not counted; a new timer must fit (each one fires a run).
  const pending = await store.countPendingTimers(sessionId);
  if (pending >= maxPendingTimers()) {
    const existing = await store.findTimer(sessionId, key);
    if (!existing) throw new ToolError(`schedule(): this session has ${pending} timers waiting, the most it may have (STACKBONE_MAX_TIMERS_PER_SESSION); nothing was scheduled.`);
    return { id: existing.id, fireAt: existing.fireAt.toISOString(), created: false };
  }
  const { timer, created } = await store.scheduleTimer({ sessionId, key, fireAt, messages });
  return { id: timer.id, fireAt: timer.fireAt.toISOString(), created };
}

export interface TimerTick {
  /** Timers whose messages are in their session now. */
  fired: number;
  /** Due timers whose session could not take them yet (it waits for a browser tool's result): the next tick tries again. A run in progress or a pending decision does not hold a timer up: its messages are queued. */
  waiting: number;
  /** Settles when the runs the fired timers started have ended. */
  done: Promise<void>;
}

export async function fireDueTimers(store: EventStore, findAgent: (name: string) => DeepAgent | undefined, now = new Date()): Promise<TimerTick> {
  const runs: Promise<void>[] = [];
  let fired = 0;
  let waiting = 0;
  for (const timer of await store.dueTimers(now)) {
    const record = await store.getSession(timer.sessionId);
    const agent = record && findAgent(record.agent);
    try {
      if (agent) {
        const run = await appendToSession({ agent, store, sessionId: timer.sessionId, ownerId: record.ownerId }, timer.messages);
        if (run) {
          runs.push(run.done.catch((error) => console.error(`[stackbone] the run of timer ${timer.id} failed`, error)));
          crashPoint('timer-firing');
        }
      } else {
        console.error(`[stackbone] timer ${timer.id}: its session or agent is gone; dropping it`);
      }
      if (await store.markTimerFired(timer.id, new Date())) fired++;
    } catch (error) {
      if (error instanceof RunRejectedError && (error.code === 'session_busy' || error.code === 'interrupts_pending' || error.code === 'tool_result_missing')) waiting++;
      else console.error(`[stackbone] firing timer ${timer.id} failed`, error);
    }
  }
  return { fired, waiting, done: Promise.all(runs).then(() => undefined) };
}

/** Fires due timers now and every intervalMs; a tick never overlaps the last. Returns a stop function. */
export function startTimerLoop(store: EventStore, findAgent: (name: string) => DeepAgent | undefined, intervalMs: number): () => void {
  return startBackgroundLoop('timer tick', intervalMs, () => fireDueTimers(store, findAgent));
}
