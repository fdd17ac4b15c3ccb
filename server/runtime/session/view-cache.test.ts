import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { SessionEvent } from '../../store/events';
import { reduceAll } from './reduce';
import { runHoldsSession } from './run-lease';
import { loadSessionView, loadView } from './view-cache';

const turn = (n: number): SessionEvent[] => [
  { type: 'run_started', runId: `r${n}`, source: 'agui' },
  { type: 'message_added', message: { id: `u${n}`, role: 'user', content: `hello ${n}` } },
  { type: 'assistant_step', finishReason: 'stop', message: { id: `a${n}`, role: 'assistant', content: `hi ${n}` } },
  { type: 'run_finished', runId: `r${n}`, outcome: { type: 'success' } },
];

/** A store that records from which seq each read started. */
function recording(store: EventStore) {
  const reads: number[] = [];
  return {
    reads,
    store: { ...store, readEvents: (id: string, after = 0) => (reads.push(after), store.readEvents(id, after)) } as EventStore,
  };
}

describe('loadView', () => {
  it('folds the whole log once, then only what was appended since', async () => {
    const memory = createMemoryStore();
    const { store, reads } = recording(memory);
    await memory.ensureSession({ id: 's', ownerId: 'o', agent: 'a' });
    await memory.append('s', 0, turn(1));
    expect((await loadView(store, 's', {})).messages).toHaveLength(2);
    await memory.append('s', 4, turn(2));
    const view = await loadView(store, 's', {});
    expect(reads).toEqual([0, 4]);
    expect(view).toEqual(reduceAll(await memory.readEvents('s'), {}));
    expect(await loadView(store, 's', {})).toEqual(view);
    expect(reads).toEqual([0, 4, 8]);
  });
});

describe('loadSessionView', () => {
  it('answers the lease of a run that started after the record was read: that run holds the session', async () => {
    const store = createMemoryStore();
    await store.ensureSession({ id: 's', ownerId: 'o', agent: 'a' });
    await store.append('s', 0, turn(1), { status: 'idle', leaseUntil: null });
    const before = (await store.getSession('s'))!;
    // Another process starts a run between this request's read of the record and of the log.
    await store.append('s', 4, [{ type: 'run_started', runId: 'r2', source: 'hitl' }], { status: 'running', leaseUntil: new Date(Date.now() + 30_000) });
    const { session, view } = await loadSessionView(store, before, {});
    expect(view.status).toBe('running');
    expect(runHoldsSession(view, session)).toBe(true);
  });
});
