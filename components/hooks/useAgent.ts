'use client';
// useAgent: a thin React adapter over AgentStore (agent-store/), one AG-UI thread per call.
// The server component renders the thread's first paint and passes its messages and state
// here; the hook continues from them, so a refresh shows the same conversation at once. It
// answers in TanStack AI's shape (`interrupts`, `resolveInterrupt`) and experimental-a2's
// (`state.pendingApprovals`, `approve`, `deny`, `respond`, `status: 'failed'`), docs/hitl.md.
// `decisions` (by toolCallId) and `stoppedToolCallIds` say what became of each call a person
// decided or a stop cut (docs/hitl.md, "Decisions in the chat").
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Attachment } from '@/server/contract';
import {
  AgentStore,
  agentView,
  storeAddress,
  type AgentStoreOptions,
  type AgentView,
  type InterruptDecision,
  type PendingInterrupt,
  type PendingRef,
  type ResolveOptions,
  type ThreadAddress,
} from './agent-store';

export type {
  AgentError,
  AgentSnapshot,
  AgentState,
  AgentStatus,
  AgentViewStatus,
  DecisionKind,
  FrontendTool,
  InterruptDecision,
  InterruptResolution,
  PendingApproval,
  PendingInput,
  PendingInterrupt,
  PendingRef,
  ResolveOptions,
  ThreadActivity,
} from './agent-store';
export type { DecisionRecord, QueueItem } from '@/server/contract';

/** The store's options, less what only tests and the store itself tune; the thread named either way. */
export type UseAgentOptions = Omit<AgentStoreOptions, 'agent' | 'threadId' | 'url' | 'createAgent' | 'createEventSource' | 'maxToolRounds' | 'headers'> &
  ThreadAddress;

/** An agent's shared state type (`useAgent<typeof billing>`): its initialState's, or any JSON object. */
export type StateOf<Agent> = Agent extends { initialState: infer S extends object } ? S : Record<string, unknown>;

export interface UseAgentResult<S extends object = Record<string, unknown>> extends AgentView<S> {
  /** Sends, or queues while a turn runs or waits on a decision; false when neither happened. */
  sendMessage: (text: string, attachments?: Attachment[]) => Promise<boolean>;
  /** The queue (docs/turn-control.md, "Queue"): each resolves false when the server refused. */
  editQueued: (id: string, text: string) => Promise<boolean>;
  moveQueued: (id: string, index: number) => Promise<boolean>;
  removeQueued: (id: string) => Promise<boolean>;
  sendQueuedNow: (id: string) => Promise<boolean>;
  setState: (partial: Record<string, unknown>) => void;
  /** Picks the model of the thread's next turn (docs/models.md, "Choosing a model"). */
  setModel: (model: string) => void;
  stop: () => void;
  /** Guidance for the turn in progress; resolves false when the server did not take it. */
  steer: (text: string) => Promise<boolean>;
  /** Runs the failed turn again (when `canRetry`, i.e. `status === 'failed'`). */
  retry: () => Promise<void>;
  /** Decides every open interrupt: one answer for all, or one per interrupt. Submits the batch. */
  resolveInterrupts: (decide: boolean | ((interrupt: PendingInterrupt) => InterruptDecision)) => Promise<void>;
  cancelInterrupts: () => Promise<void>;
  /** Resubmits the staged batch after a failed resume. */
  retryInterrupts: () => Promise<void>;
  /** Approves one of `state.pendingApprovals` (or its id): `interrupt.resolveInterrupt(true, options)`. */
  approve: (approval: PendingRef, options?: Pick<ResolveOptions, 'editedArgs' | 'payload'>) => Promise<void>;
  /** Denies one: `interrupt.resolveInterrupt(false, options)`; the model is told the reason. */
  deny: (approval: PendingRef, options?: Pick<ResolveOptions, 'reason' | 'payload'>) => Promise<void>;
  /** Answers one of `state.pendingInputs` with `value`: `interrupt.resolveInterrupt(true, {payload: value})`. */
  respond: (input: PendingRef, value: unknown) => Promise<void>;
}

export function useAgent<Agent = unknown>(options: UseAgentOptions): UseAgentResult<StateOf<Agent>> {
  const { agent, threadId, url } = storeAddress(options);
  const { tools } = options;
  // One store per thread. The initial data only seeds it: after mount the store is the truth,
  // and a new server render of the same thread must not rewind what streamed in since.
  const store = useMemo(
    () => new AgentStore({ ...options, agent, threadId, url }),
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
      ...agentView<StateOf<Agent>>(snapshot),
      sendMessage: (text: string, attachments?: Attachment[]) => store.sendMessage(text, attachments),
      editQueued: store.editQueued,
      moveQueued: store.moveQueued,
      removeQueued: store.removeQueued,
      sendQueuedNow: store.sendQueuedNow,
      setState: store.setState,
      setModel: store.setModel,
      stop: () => void store.stop(),
      retry: () => store.retry(),
      steer: (text: string) => store.steer(text),
      resolveInterrupts: store.resolveInterrupts,
      cancelInterrupts: store.cancelInterrupts,
      retryInterrupts: store.retryInterrupts,
      approve: store.approve,
      deny: store.deny,
      respond: store.respond,
    }),
    [snapshot, store],
  );
}
