// The view cache is bounded by bytes as well as by count (docs/security.md, "What a request may
// carry"): a few long threads push the least recently read views out, and a view larger than the
// whole budget is not kept at all. Its own process: it sets STACKBONE_VIEW_CACHE_BYTES.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../store/events';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { approximateBytes } from '../common';
import { loadView } from './view-cache';

afterEach(() => {
  delete process.env.STACKBONE_VIEW_CACHE_BYTES;
});

/** One turn whose user message holds `chars` characters. */
const turn = (n: number, chars: number): SessionEvent[] => [
  { type: 'run_started', runId: `r${n}`, source: 'agui' },
  { type: 'message_added', message: { id: `u${n}`, role: 'user', content: 'x'.repeat(chars) } },
  { type: 'run_finished', runId: `r${n}`, outcome: { type: 'success' } },
];

/** A store that records, per session, from which seq each read of the log started (0: the view was not cached). */
function recording(store: EventStore) {
  const reads: Record<string, number[]> = {};
  return {
    reads,
    store: { ...store, readEvents: (id: string, after = 0) => ((reads[id] ??= []).push(after), store.readEvents(id, after)) } as EventStore,
  };
}

describe('the view cache, bounded by bytes', () => {
  it('drops the least recently read views once their bytes pass STACKBONE_VIEW_CACHE_BYTES; a view larger than it is never kept', async () => {
    const memory = createMemoryStore();
    const { store, reads } = recording(memory);
    const size = approximateBytes(turn(0, 1_000));
    process.env.STACKBONE_VIEW_CACHE_BYTES = String(Math.floor(size * 2.5));
    for (const id of ['a', 'b', 'c']) {
      await memory.ensureSession({ id, ownerId: 'o', agent: 'x' });
      await memory.append(id, 0, turn(0, 1_000));
    }
    await memory.ensureSession({ id: 'huge', ownerId: 'o', agent: 'x' });
    await memory.append('huge', 0, turn(0, 10_000));

    await loadView(store, 'a', {});
    await loadView(store, 'b', {});
    // Two fit; a third pushes out the least recently read (a).
    await loadView(store, 'c', {});
    await loadView(store, 'b', {});
    await loadView(store, 'a', {});
    expect(reads.b).toEqual([0, 3]);
    expect(reads.a).toEqual([0, 0]);
    // Too large for the whole budget: read from the start every time, and it pushes nothing out.
    await loadView(store, 'huge', {});
    await loadView(store, 'huge', {});
    await loadView(store, 'a', {});
    expect(reads.huge).toEqual([0, 0]);
    expect(reads.a).toEqual([0, 0, 3]);
  });
});
