// Timers (docs/turn-control.md, "Timers"): a tool schedules messages for its session; the
// scheduler — an in-process loop under `npm start`, a queued wake or the cron route on hosts
// without a long-lived process (docs/deploy.md, "Due work") — appends them when their time comes and runs the agent on them, as trusted server
// code does. Exactly once: the messages carry the timer's ids, so a timer appended twice (a
// crash between appending and marking it fired, two processes at once) adds them once.
import type { FindAgent } from '../../authoring';
import type { EventStore, TimerRecord } from '../../store/types';
import { crashPoint, startBackgroundLoop } from '../common';
import { Refusal } from '../errors';
import { appendToSession } from './server-session';

export interface TimerTick {
  /** Timers whose messages are in their session now. */
  fired: number;
  /** Due timers whose session could not take them yet (it waits for a browser tool's result): the next tick tries again. A run in progress or a pending decision does not hold a timer up: its messages are queued. */
  waiting: number;
  /** Settles when the runs the fired timers started have ended. */
  done: Promise<void>;
}

export async function fireDueTimers(store: EventStore, findAgent: FindAgent, now = new Date()): Promise<TimerTick> {
  const runs: Promise<void>[] = [];
  let fired = 0;
  let waiting = 0;
  for (const timer of await store.dueTimers(now)) {
    const firing = await fireTimer(store, findAgent, timer, now);
    if (firing.outcome === 'fired') fired++;
    if (firing.outcome === 'waiting') waiting++;
    if (firing.run) runs.push(firing.run);
  }
  return { fired, waiting, done: Promise.all(runs).then(() => undefined) };
}

/** How firing one timer went: `waiting` when its session cannot take the messages yet (try again soon). */
export interface TimerFiring {
  outcome: 'fired' | 'waiting' | 'dropped' | 'failed' | 'not_due';
  /** Settles (never rejects) when the run it started has ended. */
  run?: Promise<void>;
}

/**
 * Fires one due timer: its messages go into its session and the agent runs on them. A timer
 * fired already, or not due at `now`, is left as it is (a wake that came twice, or early).
 */
export async function fireTimer(store: EventStore, findAgent: FindAgent, timer: TimerRecord, now = new Date()): Promise<TimerFiring> {
  if (timer.firedAt || timer.fireAt.getTime() > now.getTime()) return { outcome: 'not_due' };
  const record = await store.getSession(timer.sessionId);
  const agent = record && findAgent(record.agent);
  let run: Promise<void> | undefined;
  try {
    if (agent) {
      const started = await appendToSession({ agent, store, sessionId: timer.sessionId, ownerId: record.ownerId }, timer.messages);
      if (started) {
        run = started.done.catch((error) => console.error(`[stackbone] the run of timer ${timer.id} failed`, error));
        crashPoint('timer-firing');
      }
    } else {
      console.error(`[stackbone] timer ${timer.id}: its session or agent is gone; dropping it`);
    }
    return { outcome: (await store.markTimerFired(timer.id, new Date())) ? 'fired' : 'dropped', run };
  } catch (error) {
    if (error instanceof Refusal && (error.code === 'session_busy' || error.code === 'interrupts_pending' || error.code === 'tool_result_missing'))
      return { outcome: 'waiting', run };
    if (error instanceof Refusal && error.code === 'thread_full') {
      // A full thread takes no message, now or later (docs/security.md): the timer is dropped, not tried every tick.
      console.error(`[stackbone] timer ${timer.id}: its thread is full (thread_full); dropping it`);
      await store.markTimerFired(timer.id, new Date());
      return { outcome: 'dropped', run };
    }
    console.error(`[stackbone] firing timer ${timer.id} failed`, error);
    return { outcome: 'failed', run };
  }
}

/** Fires due timers now and every intervalMs; a tick never overlaps the last. Returns a stop function. */
export function startTimerLoop(store: EventStore, findAgent: FindAgent, intervalMs: number): () => void {
  return startBackgroundLoop('timer tick', intervalMs, () => fireDueTimers(store, findAgent));
}
