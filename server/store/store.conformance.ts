// What every EventStore backend promises, as one vitest suite each backend runs
// (memory-store.test.ts, sqlite.test.ts, postgres.test.ts), in parts by theme (conformance/).
// Ids are random so runs and suites never collide.
import { afterAll, beforeAll, describe } from 'vitest';
import { describeInterruptsAndRecovery } from './conformance/interrupts-and-recovery.conformance';
import { describeOutbox } from './conformance/outbox.conformance';
import { describeQueueSteersTimers } from './conformance/queue-steers-timers.conformance';
import { describeSessionsAndLog } from './conformance/sessions-and-log.conformance';
import { describeStops } from './conformance/stops.conformance';
import { heardAcross, openedLater, type ConformanceStores } from './conformance/support';
import { describeWatch } from './conformance/watch.conformance';
import type { EventStore } from './types';

/**
 * makeStore opens a NEW store on the same database each time it is called: the suite uses a
 * second one to play a second server instance (its own connection or pool), and a third to close.
 */
export function describeEventStoreConformance(name: string, makeStore: () => Promise<EventStore>): void {
  describe(`EventStore conformance: ${name}`, () => {
    const opened = {} as Partial<ConformanceStores>;
    const stores: ConformanceStores = { store: openedLater(() => opened.store!), otherInstance: openedLater(() => opened.otherInstance!) };

    beforeAll(async () => {
      opened.store = await makeStore();
      opened.otherInstance = await makeStore();
      // A watcher's first call may be a resync (e.g. when a LISTEN connection comes up);
      // get those out of the way, so that every call the tests count is about the change it follows.
      await heardAcross(opened.store, opened.otherInstance);
      await heardAcross(opened.otherInstance, opened.store);
    }, 30_000);
    afterAll(async () => {
      await opened.store?.close();
      await opened.otherInstance?.close();
    });

    describeSessionsAndLog(stores);
    describeQueueSteersTimers(stores);
    describeInterruptsAndRecovery(stores);
    describeStops(stores);
    describeOutbox(stores);
    describeWatch(stores, makeStore);
  });
}
