// What the parts of the store's conformance suite share (store.conformance.ts puts them together): the two
// stores every part runs on, and helpers to make sessions, events and waits.
import { randomUUID } from 'node:crypto';
import type { InterruptRecord } from '../pauses';
import type { SessionEvent } from '../events';
import type { EventStore } from '../types';

/**
 * The stores a part runs on: `otherInstance` is a second store on the same database, as another
 * server process would open (its own connection or pool).
 */
export interface ConformanceStores {
  store: EventStore;
  otherInstance: EventStore;
}

/**
 * Stands for the store `current()` answers when a test runs: the suite opens its stores in
 * beforeAll, after the parts have declared their tests. Every call goes to that real store.
 */
export function openedLater(current: () => EventStore): EventStore {
  return new Proxy({} as EventStore, {
    get(_, property) {
      const store = current();
      const value: unknown = Reflect.get(store, property, store);
      return typeof value === 'function' ? value.bind(store) : value;
    },
  });
}

/** A new session with random ids, so that runs and suites never collide. */
export function openSession(store: EventStore, ownerId = `owner-${randomUUID()}`, agent = 'assistant') {
  return store.ensureSession({ id: randomUUID(), ownerId, agent });
}

/** How long a watcher may take to hear a change (another process's comes through the database). */
export const WAKE_MS = 2_000;
/** How long to go on listening for calls that must not come (an echo of NOTIFY takes ~ms). */
export const QUIET_MS = 300;

/** Waits until `watcher` hears a write made through `writer`: after this its calls follow changes. */
export async function heardAcross(watcher: EventStore, writer: EventStore) {
  const session = await openSession(writer);
  const heard = counter();
  const unsubscribe = watcher.watch(session.id, heard.listener);
  try {
    await writer.append(session.id, 0, steps(1));
    await waitFor(() => heard.calls >= 1, 'the warm-up wake-up', 20_000);
  } finally {
    unsubscribe();
  }
}

/** A listener that counts its calls. */
export function counter() {
  const state = {
    calls: 0,
    listener: () => {
      state.calls++;
    },
  };
  return state;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = WAKE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(10);
  }
}

export function steps(count: number, label = 'step'): SessionEvent[] {
  return Array.from({ length: count }, (_, i) => ({ type: 'step_started', stepName: `${label}-${i}` }));
}

/** One of (nearly) every kind, with the awkward bits: unicode, nesting, nulls, big numbers. */
export function sampleEvents(): SessionEvent[] {
  const runId = randomUUID();
  return [
    { type: 'run_started', runId, source: 'agui' },
    { type: 'message_added', message: { id: 'm1', role: 'user', content: 'Grüße — 你好 👋 "quoted" \\ back\nslash' } },
    {
      type: 'assistant_step',
      message: {
        id: 'm2',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call-1', name: 'search', input: { q: 'x', nested: { list: [1, null, true] } } }],
      },
      finishReason: 'tool-calls',
      usage: { inputTokens: 1200, outputTokens: 34 },
    },
    { type: 'tool_started', toolCallId: 'call-1', toolName: 'search', attempt: 1 },
    {
      type: 'tool_result',
      message: { id: 'm3', role: 'tool', toolCallId: 'call-1', toolName: 'search', content: '{"hits":2}' },
      output: { hits: 2, big: Number.MAX_SAFE_INTEGER, ratio: 0.1 },
    },
    { type: 'state_patched', patch: [{ op: 'add', path: '/todo/-', value: { title: 'café', done: false } }] },
    { type: 'run_finished', runId, outcome: { type: 'interrupt', interruptIds: ['i-1'] } },
  ];
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An interrupt as a run records it when it pauses for a human (docs/hitl.md). */
export function interruptRecord(overrides: Partial<InterruptRecord> = {}): InterruptRecord {
  return {
    id: `int_${randomUUID()}`,
    reason: 'tool_call',
    toolCallId: `call-${randomUUID()}`,
    toolName: 'sendInvoice',
    input: { invoiceId: 'inv_7', amount: 19.99 },
    message: 'Send invoice inv_7 for 19.99?',
    responseSchema: { type: 'object' },
    allowedDecisions: ['approve', 'reject'],
    onExpire: 'deny',
    schemaHash: 'hash-1',
    runId: randomUUID(),
    agent: 'assistant',
    ...overrides,
  };
}
