// The live feed of a run in this process: every part the run produced so far, in cursor
// order, and a way to wait for the next. A response reads it; the run never waits for a
// reader, so a client that goes away costs the run nothing (docs/internals/architecture.md, "The life
// of a run"). Another process learns of the run from the log instead (follow.ts).
import { compareCursor, parseCursor, type CursorPosition } from './cursor';
import { endsRun, type StreamPart } from './parts';
import { ownerOfSessionId } from '../session';

export class RunFeed {
  readonly parts: StreamPart[] = [];
  ended = false;
  private last: CursorPosition | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly sessionId: string,
    readonly runId: string,
  ) {}

  /** Adds a part unless one at or after its cursor is already in (a projection of what streamed live). */
  push(entry: StreamPart): void {
    if (this.ended) return;
    const at = entry.cursor ? parseCursor(entry.cursor) : null;
    if (at && this.last && compareCursor(at, this.last) <= 0) return;
    if (at) this.last = at;
    this.parts.push(entry);
    if (endsRun(entry.part)) this.end();
    else this.wake();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (feeds().get(this.sessionId) === this) feeds().delete(this.sessionId);
    this.wake();
  }

  /** Resolves when a part is pushed or the feed ends. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  /** The parts after `after` (all of them when it is null), then each new one as it comes, until the run ends or `signal` aborts. */
  async *read(after: CursorPosition | null, signal?: AbortSignal): AsyncGenerator<StreamPart> {
    let index = after ? this.parts.findIndex((entry) => entry.cursor !== undefined && compareCursor(parseCursor(entry.cursor)!, after) > 0) : 0;
    if (index < 0) index = this.parts.length;
    while (!signal?.aborted) {
      while (index < this.parts.length) yield this.parts[index++]!;
      if (this.ended) return;
      await untilAborted(this.changed(), signal);
    }
  }

  private wake() {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}

// One registry per process; Next bundles routes separately, so it lives on globalThis.
const REGISTRY = Symbol.for('stackbone.runFeeds');
function feeds(): Map<string, RunFeed> {
  const scope = globalThis as { [REGISTRY]?: Map<string, RunFeed> };
  return (scope[REGISTRY] ??= new Map());
}

/**
 * Makes a run's feed the session's live run in this process, until it ends. Only a run that
 * took the session is published: one that lost the race must not hide the winner's feed.
 */
export function publishFeed(feed: RunFeed): void {
  if (!feed.ended) feeds().set(feed.sessionId, feed);
}

/** The run of this session running in this process, if any. */
export function liveFeed(sessionId: string): RunFeed | undefined {
  return feeds().get(sessionId);
}

/**
 * The live feed of an owner's run by its id alone (found only while it runs here). A run id is
 * the client's: another owner's run of the same id is none of this owner's.
 */
export function liveRunOf(ownerId: string, runId: string): RunFeed | undefined {
  for (const feed of feeds().values()) if (feed.runId === runId && ownerOfSessionId(feed.sessionId) === ownerId) return feed;
  return undefined;
}

export function untilAborted(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}
