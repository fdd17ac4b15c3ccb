// The server carries on by itself (docs/internals/architecture.md, "Recovery"): a run whose server died is taken
// over once its lease runs out — an accepted decision whose tool never finished runs again,
// with handlerContext().attempt + 1 — an interrupt past its expiry escalates or takes its
// default action, a reminder due is recorded (docs/approvals.md), and a queue left behind by a server that died after a turn goes out. A sweep runs at start-up and then periodically; any request touching the session
// does the same through startRun. A sweep only starts the runs it recovers: one slow
// recovered run must not hold up the others, nor the next sweep (docs/hitl.md, Timeouts).
import type { FindAgent } from '../../authoring';
import { ConcurrentAppendError, type EventStore } from '../../store/types';
import { dueReminders, expiryEvents } from '../decisions';
import type { SessionEvent } from '../../store/events';
import { Refusal } from '../errors';
import { foldEvents, pendingInterrupts, runHoldsSession, loadSessionView, loadView } from '../session';
import { settleStoppedRun } from '../turn';

import { sendQueued, startRun } from '../turn-control';
import { startBackgroundLoop } from '../common';
import { setting } from '../../config';

/** A run a recovery started; `done` settles when it has written its last event. */
export interface RecoveredRun {
  runId: string;
  done: Promise<void>;
}

/**
 * Carries a session on if it needs it. Resolves once the run is started (or undefined when
 * nothing was started); the run goes on by itself. The run is wrapped in an object because an
 * async function cannot resolve to a promise without waiting for it.
 */
export async function recoverSession(store: EventStore, findAgent: FindAgent, sessionId: string): Promise<RecoveredRun | undefined> {
  const session = await store.getSession(sessionId);
  if (!session) return undefined;
  const agent = findAgent(session.agent);
  if (!agent) {
    await retireSession(store, session.id, session.agent);
    return undefined;
  }
  const { session: current, view } = await loadSessionView(store, session, agent.initialState);
  const expired = expiryEvents(view);
  const reminders = dueReminders(view);
  const abandoned = view.status === 'running' && !runHoldsSession(view, current);
  try {
    if ((expired.length > 0 || reminders.length > 0) && pendingInterrupts(foldEvents(view, expired)).length > 0) {
      // Escalations, part of a batch expired, or reminders: recorded alone (one compare-and-set,
      // so two sweeps write them once); the rest still waits for people.
      const events: SessionEvent[] = [...expired, ...reminders];
      await store.append(sessionId, view.seq, events, { status: view.status });
      return undefined;
    }
    if (expired.length === 0 && !abandoned) {
      // An idle session with a queue: its server died between a turn's end and the next message.
      const next = view.status === 'idle' ? await sendQueued(store, agent, sessionId) : undefined;
      return next && { runId: next.runId, done: next.done };
    }
    if (abandoned) {
      // A stopped run whose server died before it closed itself is closed, not carried on.
      const settled = await settleStoppedRun(store, sessionId, view);
      if (settled.length > 0) {
        await store.append(sessionId, view.seq, settled, { status: foldEvents(view, settled).status, leaseUntil: null });
        return undefined;
      }
    }
    const run = await startRun({
      agent,
      store,
      sessionId,
      ownerId: session.ownerId,
      source: 'server',
      parentRunId: view.lastRun?.runId,
      messages: [],
      // Only on the log as read here: the run that looked abandoned may have finished meanwhile.
      atSeq: view.seq,
    });
    return { runId: run.runId, done: run.done };
  } catch (error) {
    // Another server or request got there first; it carries the session on.
    if (ConcurrentAppendError.is(error) || error instanceof Refusal) return undefined;
    throw error;
  }
}

/**
 * A session whose agent is no longer on this server cannot be carried on: its open decisions
 * are closed as denied and its run as failed (`agent_removed`), with the reason, so that it is
 * not listed for recovery again and again, and a client sees why.
 */
async function retireSession(store: EventStore, sessionId: string, agentName: string): Promise<void> {
  const view = await loadView(store, sessionId, {});
  const reason = `Agent "${agentName}" is no longer on this server.`;
  const events: SessionEvent[] = pendingInterrupts(view).map((record) => ({
    type: 'interrupt_decided',
    interruptId: record.id,
    decision: { status: 'denied', reason, by: { source: 'server' } },
  }));
  if (view.status !== 'idle' && view.status !== 'error' && view.lastRun)
    events.push({ type: 'run_failed', runId: view.lastRun.runId, code: 'agent_removed', message: reason });
  if (events.length === 0) return;
  try {
    await store.append(sessionId, view.seq, events, { status: foldEvents(view, events).status, leaseUntil: null });
    console.error(`[stackbone] recovery: session ${sessionId} belongs to agent "${agentName}", which is gone; its run is closed as failed.`);
  } catch (error) {
    if (!ConcurrentAppendError.is(error)) throw error;
  }
}

export interface SweepResult {
  /** Sessions listed as needing recovery. */
  sessions: number;
  /** Runs this sweep started. */
  started: number;
  /** Settles (never rejects) when every started run has finished. */
  done: Promise<void>;
}

/** How many sessions a sweep starts at once: STACKBONE_RECOVERY_CONCURRENCY, default 4. */
function recoveryConcurrency(): number {
  return setting('STACKBONE_RECOVERY_CONCURRENCY');
}

/**
 * Starts the recovery of every session that needs it, a few at a time (reading a session and
 * taking it costs a few queries each), and resolves once all are started — not finished.
 */
export async function sweep(store: EventStore, findAgent: FindAgent): Promise<SweepResult> {
  const ids = await store.listRecoverable(new Date());
  const runs: Promise<void>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        const run = await recoverSession(store, findAgent, id);
        if (run) runs.push(run.done.catch((error) => console.error(`[stackbone] recovered run of session ${id} failed`, error)));
      } catch (error) {
        console.error(`[stackbone] recovering session ${id} failed`, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(recoveryConcurrency(), ids.length) }, worker));
  return { sessions: ids.length, started: runs.length, done: Promise.all(runs).then(() => undefined) };
}

/**
 * Sweeps now and then every intervalMs, never two sweeps' start phases at once. A tick does
 * not wait for the runs it started: they hold fresh leases, so the next sweep skips them.
 * Returns a stop function.
 */
export function startRecoveryLoop(store: EventStore, findAgent: FindAgent, intervalMs: number): () => void {
  return startBackgroundLoop('recovery sweep', intervalMs, () => sweep(store, findAgent));
}
