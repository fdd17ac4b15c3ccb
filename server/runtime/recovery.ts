// The server carries on by itself (SPEC §3, §8, §11): a run whose server died is taken
// over once its lease runs out — an accepted decision whose tool never finished runs again,
// with handlerContext().attempt + 1 — and an interrupt past its expiry takes its default
// action. A sweep runs at start-up and then periodically; any request touching the session
// does the same through startRun.
import type { DeepAgent } from '../define';
import { ConcurrentAppendError, type EventStore } from '../store/types';
import { expiryDecision, isExpired } from './decide';
import type { SessionEvent } from './events';
import { RunRejectedError } from './errors';
import { pendingInterrupts } from './reduce';
import { loadView } from './views';
import { startRun } from './turn';

export async function recoverSession(store: EventStore, findAgent: (name: string) => DeepAgent | undefined, sessionId: string): Promise<void> {
  const session = await store.getSession(sessionId);
  const agent = session && findAgent(session.agent);
  if (!session || !agent) return;
  const view = await loadView(store, sessionId, agent.initialState);
  const pending = pendingInterrupts(view);
  const expired = pending.filter((record) => isExpired(record));
  const abandoned = view.status === 'running' && (!session.leaseUntil || session.leaseUntil.getTime() <= Date.now());
  try {
    if (expired.length > 0 && expired.length < pending.length) {
      // Part of a batch expired: record its default actions; the rest still waits for people.
      const events: SessionEvent[] = expired.map((record) => ({ type: 'interrupt_decided', interruptId: record.id, decision: expiryDecision(record) }));
      await store.append(sessionId, view.seq, events, { status: view.status });
      return;
    }
    if (expired.length === 0 && !abandoned) return;
    const run = await startRun({
      agent,
      store,
      sessionId,
      ownerId: session.ownerId,
      source: 'server',
      parentRunId: view.lastRun?.runId,
      messages: [],
    });
    await run.done;
  } catch (error) {
    // Another server or request got there first; it carries the session on.
    if (ConcurrentAppendError.is(error) || error instanceof RunRejectedError) return;
    throw error;
  }
}

export async function sweep(store: EventStore, findAgent: (name: string) => DeepAgent | undefined): Promise<number> {
  const ids = await store.listRecoverable(new Date());
  for (const id of ids) {
    await recoverSession(store, findAgent, id).catch((error) => console.error(`[stackbone] recovering session ${id} failed`, error));
  }
  return ids.length;
}

/** Sweeps now and then every intervalMs, never two sweeps at once. Returns a stop function. */
export function startRecoveryLoop(store: EventStore, findAgent: (name: string) => DeepAgent | undefined, intervalMs: number): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await sweep(store, findAgent);
    } catch (error) {
      console.error('[stackbone] recovery sweep failed', error);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
