// A store that asks to be woken (docs/deploy.md, "Due work"): each write that leaves work due
// later tells the waker when — a timer's fire time, an opened or escalated interrupt's expiry and
// reminder, a run's lease (its expiry is when an orphaned run is carried on), a notice written, a
// delivery claimed (its claim runs out if the sender dies), failed or retried by hand. The writes
// are the ones every process makes anyway, so the loops and the crons see the same work; only a
// host without a long-lived process (STACKBONE_WAKER=vercel-queue) wraps its store in this.
//
// A wake is asked for after the write commits and is not waited on: a turn does not pay for the
// queue's round trip before its first token. settleWakes() waits for those still in flight (the
// wake route does, before it acknowledges the delivery that caused them).
import { timerWakeKey, type Wake, type Waker } from '../wake';
import { interruptChanges } from './backend-rules';
import { notableEvents } from './notices';
import type { EventStore } from './types';

/** On globalThis, as the store is (index.ts): each route's bundle has its own copy of this module. */
const shared = globalThis as typeof globalThis & { __stackboneWakesInFlight?: Set<Promise<void>> };
const inFlight = (shared.__stackboneWakesInFlight ??= new Set());

function ask(waker: Waker, wakes: Wake[]): void {
  for (const wake of wakes) {
    const sent = waker
      .wake(wake)
      .catch((error) =>
        console.error(`[stackbone] could not ask to be woken for ${wake.kind} ${wake.key} at ${wake.at.toISOString()}; the cron backstop will find it`, error),
      )
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  }
}

/** Settles when every wake asked for so far has been accepted or has failed. */
export async function settleWakes(): Promise<void> {
  while (inFlight.size > 0) await Promise.all(inFlight);
}

/** The times an append leaves due: lease, expiries, reminders, and now for the notices it wrote. */
function appendWakes(sessionId: string, firstSeq: number, events: Parameters<EventStore['append']>[2], leaseUntil: Date | null | undefined): Wake[] {
  const session = (at: Date | string): Wake => ({ kind: 'session', key: sessionId, at: new Date(at) });
  const { opened, escalated } = interruptChanges(events);
  const wakes: Wake[] = [];
  if (leaseUntil) wakes.push(session(leaseUntil));
  for (const record of opened) {
    if (record.expiresAt) wakes.push(session(record.expiresAt));
    if (record.remindAt) wakes.push(session(record.remindAt));
  }
  for (const { expiresAt } of escalated) wakes.push(session(expiresAt));
  const notice = notableEvents(sessionId, firstSeq, events)[0];
  if (notice) wakes.push({ kind: 'outbox', key: notice.id, at: new Date() });
  return wakes;
}

export function wakingStore(store: EventStore, waker: Waker): EventStore {
  return {
    ...store,
    async append(sessionId, expectedSeq, events, options) {
      const written = await store.append(sessionId, expectedSeq, events, options);
      ask(waker, appendWakes(sessionId, expectedSeq + 1, events, options?.leaseUntil));
      return written;
    },
    async scheduleTimer(input) {
      const scheduled = await store.scheduleTimer(input);
      if (scheduled.created) ask(waker, [{ kind: 'timer', key: timerWakeKey(input.sessionId, input.key), at: scheduled.timer.fireAt }]);
      return scheduled;
    },
    async claimDueDeliveries(now, options) {
      const claims = await store.claimDueDeliveries(now, options);
      ask(
        waker,
        claims.map(({ delivery }) => ({ kind: 'outbox', key: delivery.id, at: new Date(now.getTime() + options.leaseMs) })),
      );
      return claims;
    },
    async recordDeliveryAttempt(deliveryId, attempt, outcome) {
      const recorded = await store.recordDeliveryAttempt(deliveryId, attempt, outcome);
      if (recorded && outcome.status === 'failing') ask(waker, [{ kind: 'outbox', key: deliveryId, at: outcome.nextAttemptAt }]);
      return recorded;
    },
    async retryDelivery(deliveryId, scope, now) {
      const retried = await store.retryDelivery(deliveryId, scope, now);
      if (retried) ask(waker, [{ kind: 'outbox', key: deliveryId, at: now }]);
      return retried;
    },
  };
}
