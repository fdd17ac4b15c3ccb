// Following a thread from a cursor: replay from the log, then live. It serves a client that
// re-joins a run after it left this process's memory (it finished, or it runs in another
// process) and the session stream, which carries every run and decision of a thread from
// any source (docs/internals/architecture.md, "Streams and cursors"). Another process's run arrives
// event by event (step granularity) as the store's watch wakes us; a run in this process
// adds its live deltas.
import type { EventStore } from '../../store/types';
import { compareCursor, parseCursor, type CursorPosition } from './cursor';
import type { JsonObject } from '../../store/messages';
import { LogProjector } from './log-projector';
import { endsRun, type StreamPart } from './parts';
import { emptyView } from '../session';
import { queueItems } from './queue-items';
import { liveFeed, untilAborted } from './live-feed';

export interface FollowOptions {
  store: EventStore;
  sessionId: string;
  initialState: JsonObject;
  /** Parts after this cursor; null for everything. */
  after: CursorPosition | null;
  /** Only this run's parts, ending with its end. */
  runId?: string;
  signal?: AbortSignal;
  /** The session stream ends after this long (the client reconnects with its cursor). */
  maxMs?: number;
  /** A safety net for a missed wake-up. */
  pollMs?: number;
  /** The session stream: also the thread's queue, whenever it changes (from its state now). */
  queue?: boolean;
}

export async function* follow(options: FollowOptions): AsyncGenerator<StreamPart> {
  const { store, sessionId, runId, signal } = options;
  const projector = new LogProjector(sessionId, emptyView(options.initialState));
  const deadline = options.maxMs === undefined ? Infinity : Date.now() + options.maxMs;
  let last = options.after;
  let dirty = false;
  // The queue is read again only after a write (the watch), not at each live delta.
  let queueDirty = options.queue === true;
  let queueSeen: string | undefined;
  let wake: (() => void) | undefined;
  // How far into this process's live feed of the thread this reader has got: each wake-up
  // reads on from there, not every part of the run again.
  let followed: ReturnType<typeof liveFeed>;
  let feedIndex = 0;
  const unwatch = store.watch(sessionId, () => {
    dirty = true;
    queueDirty = options.queue === true;
    wake?.();
  });
  const fresh = (entry: StreamPart) =>
    entry.cursor !== undefined && (!runId || entry.runId === runId) && (last === null || compareCursor(parseCursor(entry.cursor)!, last) > 0);
  try {
    while (!signal?.aborted && Date.now() < deadline) {
      dirty = false;
      for (const stored of await store.readEvents(sessionId, projector.seq)) {
        for (const entry of projector.project(stored)) {
          if (!fresh(entry)) continue;
          yield entry;
          last = parseCursor(entry.cursor)!;
          if (runId && endsRun(entry.part)) return;
        }
      }
      // A run streaming in this process: its parts beyond the log (a model step's deltas).
      const feed = liveFeed(sessionId);
      if (feed !== followed) {
        followed = feed;
        feedIndex = 0;
      }
      while (feed && feedIndex < feed.parts.length) {
        const entry = feed.parts[feedIndex]!;
        const at = entry.cursor ? parseCursor(entry.cursor)! : null;
        // Anything past the next event is in the log by now: read it first, in order.
        if (at && at.seq > projector.seq + 1) {
          dirty = true;
          break;
        }
        feedIndex++;
        if (!at || at.seq <= projector.seq || !fresh(entry)) continue;
        yield entry;
        last = at;
        if (runId && endsRun(entry.part)) return;
      }
      if (queueDirty) {
        queueDirty = false;
        const queue = queueItems(await store.listQueue(sessionId));
        const seen = JSON.stringify(queue);
        if (seen !== queueSeen) {
          // An empty queue is news only once there was one.
          if (queueSeen !== undefined || queue.length > 0) yield { part: { type: 'queue-changed', queue } };
          queueSeen = seen;
        }
      }
      if (dirty) continue;
      const wait = new Promise<void>((resolve) => {
        wake = resolve;
        if (dirty) resolve();
        const timer = setTimeout(resolve, Math.min(options.pollMs ?? 2000, Math.max(0, deadline - Date.now())));
        timer.unref?.();
        void feed?.changed().then(resolve);
      });
      await untilAborted(wait, signal);
      wake = undefined;
    }
  } finally {
    unwatch();
  }
}
