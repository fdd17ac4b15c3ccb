// The rows a memory store keeps (memory-store.ts): stores opened over one MemoryDatabase see each
// other's writes and wake each other's watchers, as the stores on one SQLite file do.
import type { StoredEvent } from './events';
import type { DeliveryRecord, Notice } from './notices';
import { createWatchHub, type WatchHub } from './session-watch';
import type { InterruptRow, QueuedMessage, SessionRecord, SteerRecord, StopRecord, TimerRecord } from './types';

/** What the stores over one memory database share: its rows, and the watchers of its sessions. */
export interface MemoryDatabase {
  sessions: Map<string, SessionRecord>;
  logs: Map<string, StoredEvent[]>;
  interrupts: Map<string, InterruptRow>;
  /** Interrupts whose reminder was recorded (the projection's remindAt cleared). */
  remindersDone: Set<string>;
  /** By runKey(sessionId, runId): a run id names a run only within its session. */
  stops: Map<string, StopRecord>;
  timers: Map<string, TimerRecord>;
  steers: SteerRecord[];
  queue: QueuedMessage[];
  /** The outbox: notices by id, with when they were fanned out; deliveries by id. */
  notices: Map<string, { notice: Notice; fannedOutAt: Date | null }>;
  deliveries: Map<string, DeliveryRecord>;
  hub: WatchHub;
}

export function createMemoryDatabase(): MemoryDatabase {
  return {
    sessions: new Map(),
    logs: new Map(),
    interrupts: new Map(),
    remindersDone: new Set(),
    stops: new Map(),
    timers: new Map(),
    steers: [],
    queue: [],
    notices: new Map(),
    deliveries: new Map(),
    hub: createWatchHub(),
  };
}

/** The order of text ids in a database's ORDER BY "id" (code units, as SQLite's binary collation). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
