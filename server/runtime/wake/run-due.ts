// One item of due work, run when its wake arrives (docs/deploy.md, "Due work"): exactly what the
// loops and the cron routes do for it — a timer fired, a session carried on (an expiry's
// escalation or default action, a reminder, an orphaned run after its lease, a queue left
// behind), an outbox pass. The store is the truth, not the wake: a wake that comes early, twice,
// out of order or for work already done finds nothing to do, or asks to be woken again.
import type { FindAgent } from '../../authoring';
import type { EventStore } from '../../store/types';
import { timerOfWakeKey, type Wake } from '../../wake';
import { nextDeadline } from '../decisions';
import { deliverOutbox } from '../notify';
import { recoverSession } from '../recovery';
import { loadSessionView } from '../session';
import { fireTimer } from '../turn-control';

/** How soon a timer whose session cannot take its messages yet is tried again (the loop's tick is 1 s). */
const TIMER_RETRY_MS = 2_000;
/** How soon a session still past a deadline after its recovery is tried again (the sweep's tick is 5 s): another process holds it, or a write raced. */
const SESSION_RETRY_MS = 5_000;
/** A pass that took this many notices or attempts may have left some: it runs again at once. */
const OUTBOX_BATCH = 50;

export interface DueWork {
  /** Settles (never rejects) when the runs this started have ended. */
  done: Promise<void>;
  /** Work left due later, to be woken for. */
  later: Wake[];
}

const nothing = (later: Wake[] = []): DueWork => ({ done: Promise.resolve(), later });

export async function runDue(store: EventStore, findAgent: FindAgent, wake: Wake, now = new Date()): Promise<DueWork> {
  switch (wake.kind) {
    case 'timer':
      return dueTimer(store, findAgent, wake, now);
    case 'session':
      return dueSession(store, findAgent, wake.key);
    case 'outbox': {
      const pass = await deliverOutbox(store, findAgent);
      const full = pass.fannedOut >= OUTBOX_BATCH || pass.delivered + pass.failed + pass.gaveUp >= OUTBOX_BATCH;
      return nothing(full ? [{ ...wake, at: new Date() }] : []);
    }
  }
}

async function dueTimer(store: EventStore, findAgent: FindAgent, wake: Wake, now: Date): Promise<DueWork> {
  const named = timerOfWakeKey(wake.key);
  const timer = named && (await store.findTimer(named.sessionId, named.key));
  if (!timer || timer.firedAt) return nothing();
  if (timer.fireAt.getTime() > now.getTime()) return nothing([{ ...wake, at: timer.fireAt }]);
  const firing = await fireTimer(store, findAgent, timer, now);
  const later = firing.outcome === 'waiting' ? [{ ...wake, at: new Date(now.getTime() + TIMER_RETRY_MS) }] : [];
  return { done: firing.run ?? Promise.resolve(), later };
}

/** Carries the session on if it needs it, then names its next deadline: a live run's lease, an interrupt's expiry or reminder. */
async function dueSession(store: EventStore, findAgent: FindAgent, sessionId: string): Promise<DueWork> {
  const recovered = await recoverSession(store, findAgent, sessionId);
  const done = recovered
    ? recovered.done.catch((error) => console.error(`[stackbone] recovered run of session ${sessionId} failed`, error))
    : Promise.resolve();
  const session = await store.getSession(sessionId);
  const agent = session && findAgent(session.agent);
  if (!session || !agent) return { done, later: [] };
  const { view } = await loadSessionView(store, session, agent.initialState);
  const times = [nextDeadline(view), view.status === 'running' ? session.leaseUntil?.getTime() : undefined].filter((time) => time !== undefined);
  if (times.length === 0) return { done, later: [] };
  const next = Math.min(...times);
  const now = Date.now();
  return { done, later: [{ kind: 'session', key: sessionId, at: new Date(next > now ? next : now + SESSION_RETRY_MS) }] };
}
