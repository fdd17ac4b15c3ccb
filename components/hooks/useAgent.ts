'use client';
// useAgent: a thin React adapter over AgentStore (agent-store/), one AG-UI thread per call.
// The server component renders the thread's first paint and passes its messages and state
// here; the hook continues from them, so a refresh shows the same conversation at once.
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { AgentStore, type AgentSnapshot, type AgentStoreOptions, type InterruptDecision, type PendingInterrupt } from './agent-store';

export type {
  AgentError,
  AgentSnapshot,
  AgentStatus,
  DecisionKind,
  FrontendTool,
  InterruptDecision,
  InterruptResolution,
  PendingInterrupt,
  ResolveOptions,
} from './agent-store';
export type { QueueItem } from '@/server/contract';

/** The store's options, less what only tests and the store itself tune. */
export type UseAgentOptions = Omit<AgentStoreOptions, 'createAgent' | 'createEventSource' | 'maxToolRounds' | 'headers'>;

export interface UseAgentResult extends AgentSnapshot {
  /** Sends, or queues while a turn runs or waits on a decision; false when neither happened. */
  sendMessage: (text: string) => Promise<boolean>;
  /** The queue (docs/turn-control.md, "Queue"): each resolves false when the server refused. */
  editQueued: (id: string, text: string) => Promise<boolean>;
  moveQueued: (id: string, index: number) => Promise<boolean>;
  removeQueued: (id: string) => Promise<boolean>;
  sendQueuedNow: (id: string) => Promise<boolean>;
  setState: (partial: Record<string, unknown>) => void;
  stop: () => void;
  /** Guidance for the turn in progress; resolves false when the server did not take it. */
  steer: (text: string) => Promise<boolean>;
  /** Runs the failed turn again (when `canRetry`). */
  retry: () => Promise<void>;
  /** Decides every open interrupt: one answer for all, or one per interrupt. Submits the batch. */
  resolveInterrupts: (decide: boolean | ((interrupt: PendingInterrupt) => InterruptDecision)) => Promise<void>;
  cancelInterrupts: () => Promise<void>;
  /** Resubmits the staged batch after a failed resume. */
  retryInterrupts: () => Promise<void>;
}

export function useAgent(options: UseAgentOptions): UseAgentResult {
  const { agent, threadId, tools, url } = options;
  // One store per thread. The initial data only seeds it: after mount the store is the truth,
  // and a new server render of the same thread must not rewind what streamed in since.
  const store = useMemo(
    () => new AgentStore({ ...options }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [agent, threadId, url],
  );

  useEffect(() => {
    store.setTools(tools ?? []);
  }, [store, tools]);

  // Mounting listens to the thread (a run the server is still working on, and whatever other
  // tabs, wires and decisions do to it); leaving the page (or switching threads) only stops
  // listening: runs belong to the thread and go on.
  useEffect(() => {
    store.attach();
    return () => store.detach();
  }, [store]);

  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);

  return useMemo(
    () => ({
      ...snapshot,
      sendMessage: (text: string) => store.sendMessage(text),
      editQueued: store.editQueued,
      moveQueued: store.moveQueued,
      removeQueued: store.removeQueued,
      sendQueuedNow: store.sendQueuedNow,
      setState: store.setState,
      stop: () => void store.stop(),
      retry: () => store.retry(),
      steer: (text: string) => store.steer(text),
      resolveInterrupts: store.resolveInterrupts,
      cancelInterrupts: store.cancelInterrupts,
      retryInterrupts: store.retryInterrupts,
    }),
    [snapshot, store],
  );
}
