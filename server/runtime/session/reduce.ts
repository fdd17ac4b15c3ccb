// A pure fold from the event log to what every client sees. Deterministic and total: the
// same events give the same view in every tab, on every wire, after every restart.
import { applyPatch, deepClone } from 'fast-json-patch';
import type { Decision, DecisionActor, Grant, InterruptRecord, Vote } from '../../store/pauses';
import type { ContextCompaction, DroppedEffect, ForkOrigin, RunFailureDetails, RunOutcome, SessionEvent, StoredEvent } from '../../store/events';
import type { ChatMessage, JsonObject, ToolCall } from '../../store/messages';
import type { ContextCompactedValue, FailedReply } from '../../contract';
import type { SessionStatus } from '../../store/types';
import { addUsage, type UsageEntry } from './usage';

interface RunSummary {
  runId: string;
  parentRunId?: string;
  /** seq of the run_started event: the run's messages are those appended after it. */
  startSeq: number;
  outcome?: RunOutcome;
  error?: { code: string; message: string; details?: RunFailureDetails };
  /** Which attempt at the turn this run is: 1, or more for a retry. */
  attempt: number;
  /** The model the run was started on (docs/models.md, "Choosing a model"). */
  model?: string;
  /** The partial output of a step that failed: a retry takes it out of the conversation. */
  partial?: { messageId: string; scope?: string };
  /** Calls this run closed as cancelled (withdrawn or cut): a stop that ends the run makes them stopped. */
  cancelledToolCallIds?: string[];
  /** What this run's model calls cost, its delegated tasks' included (docs/internals/architecture.md, "Usage"). */
  usage: UsageEntry[];
}

/** One conversation: the root thread's, or a delegated task's. */
export interface Conversation {
  messages: ChatMessage[];
  /** Tool calls of the model that have no result yet, in call order. */
  openToolCalls: ToolCall[];
  /**
   * The compactions that shape what the model is sent (docs/models.md, "Long threads"): the
   * latest summary and any trims after it, oldest first; a summary stands for all before it.
   */
  contextCompactions?: ContextCompaction[];
  /**
   * What the provider reported the last step was sent, in tokens, and how many messages came
   * before that step: the size of the conversation without estimating it. Cleared by a compaction.
   */
  measured?: { inputTokens: number; messageCount: number };
}

/** A compaction of the root thread as the chat shows it: a notice after the last message it stands for. */
export type CompactionNotice = ContextCompactedValue;

export interface SessionView extends Conversation {
  /** seq of the last folded event. */
  seq: number;
  state: JsonObject;
  status: SessionStatus;
  /** The run in progress, or the last one. */
  lastRun?: RunSummary;
  /** Delegated tasks' conversations, by scope (`task:<delegate_task call id>`). */
  tasks: Record<string, Conversation>;
  /** Attempts per backend tool call (tool_started count), for handlerContext().attempt. */
  toolAttempts: Record<string, number>;
  /** Every interrupt the session has raised, by id, with its decision once made. */
  interrupts: Record<string, InterruptState>;
  /** The run each retry started, by retryId: the same retryId again is the same retry. */
  retries: Record<string, string>;
  /** Tool calls a stop cut (never started, or did not finish), in the order their runs ended (docs/hitl.md, "Stopping a run"). */
  stoppedToolCallIds: string[];
  /** The root thread's replies failed turns cut short, oldest first; a retry takes its reply's out (docs/turn-control.md, "Retry"). */
  failedReplies: FailedReply[];
  /** What every model call of the thread cost, by provider and model. */
  usage: UsageEntry[];
  /** The root thread's compactions, oldest first (docs/models.md, "Long threads"). */
  compactions: CompactionNotice[];
  /** Every grant made in the session, by id, revoked ones included (docs/approvals.md, "Scoped grants"). */
  grants: Record<string, GrantState>;
  /** The grant each call started under, by tool-call id: a call carried out again after a crash runs under it again. */
  grantedCalls: Record<string, string>;
  /** The thread this one was forked from, when it was (docs/time-travel.md). */
  forkedFrom?: ForkOrigin;
  /** Calls whose effect happened in the original thread before the fork: shown as such, never run here. */
  inheritedToolCallIds: string[];
  /** Effects the original made after the fork point (docs/time-travel.md). */
  droppedEffects: DroppedEffect[];
  /** The call that undoes each dropped effect, by the dropped call's id, once asked for. */
  undoneBy: Record<string, string>;
  /** The idempotency key each undo call runs under, by the undo call's id: one per effect across its forks (docs/time-travel.md). */
  undoKeys: Record<string, string>;
}

export interface GrantState {
  grant: Grant;
  addedAt: string;
  revoked?: { by: DecisionActor; at: string };
}

/** One escalation of an interrupt nobody decided in time. */
interface EscalationStep {
  level: number;
  to: string[];
  at: string;
  /** The expiry before this escalation moved it. */
  previousExpiresAt?: string;
}

export interface InterruptState {
  record: InterruptRecord;
  decision?: Decision;
  /** seq of the decision event. */
  decidedSeq?: number;
  decidedAt?: string;
  openedAt: string;
  /** Votes cast while it waits for its quorum, in order (docs/approvals.md, "Quorum and separation of duties"). */
  votes?: Vote[];
  /** Its escalations, oldest first; the record's expiresAt is the latest one's. */
  escalations?: EscalationStep[];
  /** When its reminder was recorded. */
  remindedAt?: string;
}

/** Interrupts still waiting for a decision, oldest first. */
export function pendingInterrupts(view: SessionView): InterruptRecord[] {
  return Object.values(view.interrupts)
    .filter((state) => !state.decision)
    .map((state) => state.record);
}

export function emptyView(initialState: JsonObject = {}): SessionView {
  return {
    seq: 0,
    messages: [],
    state: deepClone(initialState),
    status: 'idle',
    openToolCalls: [],
    tasks: {},
    toolAttempts: {},
    interrupts: {},
    retries: {},
    stoppedToolCallIds: [],
    failedReplies: [],
    usage: [],
    compactions: [],
    grants: {},
    grantedCalls: {},
    inheritedToolCallIds: [],
    droppedEffects: [],
    undoneBy: {},
    undoKeys: {},
  };
}

/** Folds one event into a view. Returns a new view; the input view is not modified. */
export function reduce(view: SessionView, stored: StoredEvent): SessionView {
  const next: SessionView = { ...view, seq: stored.seq };
  const event: SessionEvent = stored.event;
  switch (event.type) {
    case 'run_started': {
      next.status = 'running';
      next.lastRun = {
        runId: event.runId,
        parentRunId: event.parentRunId,
        startSeq: stored.seq,
        attempt: event.retry?.attempt ?? 1,
        ...(event.model ? { model: event.model } : {}),
        usage: [],
      };
      if (!event.retry) return next;
      next.retries = { ...view.retries, [event.retry.retryId]: event.runId };
      // The failed step's partial output leaves the conversation; completed steps stay.
      const partial = view.lastRun?.partial;
      if (!partial) return next;
      next.failedReplies = view.failedReplies.filter((reply) => reply.messageId !== partial.messageId);
      return withConversation(next, partial.scope, (conversation) => ({
        ...conversation,
        messages: conversation.messages.filter((message) => message.id !== partial.messageId),
      }));
    }
    case 'message_added':
      return withConversation(next, event.scope, (conversation) => ({
        ...conversation,
        messages: [...conversation.messages, event.message],
        openToolCalls: event.message.role === 'tool' ? withoutCall(conversation.openToolCalls, event.message.toolCallId) : conversation.openToolCalls,
      }));
    case 'assistant_step':
      if (event.undoOf) next.undoneBy = { ...view.undoneBy, [event.undoOf]: event.message.toolCalls?.[0]?.id ?? event.message.id };
      if (event.undoKey && event.message.toolCalls?.[0]) next.undoKeys = { ...view.undoKeys, [event.message.toolCalls[0].id]: event.undoKey };
      // Every step's cost counts, whatever became of its output.
      next.usage = addUsage(view.usage, event.usage, event.model);
      if (view.lastRun) next.lastRun = { ...view.lastRun, usage: addUsage(view.lastRun.usage, event.usage, event.model) };
      const inputTokens = event.usage?.inputTokens;
      const measured = (conversation: Conversation) =>
        inputTokens === undefined ? conversation.measured : { inputTokens, messageCount: conversation.messages.length };
      // A step a stop cut before anything the user saw is written only to keep its cursors.
      if (!event.message.content && !event.message.toolCalls?.length && !event.message.reasoning?.length)
        return withConversation(next, event.scope, (conversation) => ({ ...conversation, measured: measured(conversation) }));
      if (event.finishReason === 'error' && next.lastRun)
        next.lastRun = { ...next.lastRun, partial: { messageId: event.message.id, ...(event.scope ? { scope: event.scope } : {}) } };
      return withConversation(next, event.scope, (conversation) => ({
        ...conversation,
        measured: measured(conversation),
        messages: [...conversation.messages, event.message],
        openToolCalls: [...conversation.openToolCalls, ...(event.message.toolCalls ?? [])],
      }));
    case 'tool_started':
      next.toolAttempts = { ...view.toolAttempts, [event.toolCallId]: event.attempt };
      if (event.grantId) next.grantedCalls = { ...view.grantedCalls, [event.toolCallId]: event.grantId };
      return next;
    case 'tool_result':
      if (event.status === 'cancelled' && view.lastRun)
        next.lastRun = { ...view.lastRun, cancelledToolCallIds: [...(view.lastRun.cancelledToolCallIds ?? []), event.message.toolCallId] };
      return withConversation(next, event.scope, (conversation) => ({
        ...conversation,
        messages: [...conversation.messages, event.message],
        openToolCalls: withoutCall(conversation.openToolCalls, event.message.toolCallId),
      }));
    case 'state_patched':
      next.state = applyPatch(deepClone(view.state), event.patch).newDocument as JsonObject;
      return next;
    case 'interrupts_opened':
      next.interrupts = { ...view.interrupts };
      for (const record of event.interrupts) next.interrupts[record.id] = { record, openedAt: stored.at };
      return next;
    case 'interrupt_decided': {
      const current = view.interrupts[event.interruptId];
      if (!current || current.decision) return next; // The log's CAS never lets this happen; stay total anyway.
      next.interrupts = { ...view.interrupts, [event.interruptId]: { ...current, decision: event.decision, decidedSeq: stored.seq, decidedAt: stored.at } };
      return next;
    }
    case 'interrupt_voted': {
      const current = view.interrupts[event.interruptId];
      if (!current || current.decision) return next; // The log's CAS never lets this happen; stay total anyway.
      next.interrupts = { ...view.interrupts, [event.interruptId]: { ...current, votes: [...(current.votes ?? []), event.vote] } };
      return next;
    }
    case 'interrupt_escalated': {
      const current = view.interrupts[event.interruptId];
      if (!current || current.decision) return next;
      const step: EscalationStep = {
        level: event.level,
        to: event.to,
        at: stored.at,
        ...(current.record.expiresAt ? { previousExpiresAt: current.record.expiresAt } : {}),
      };
      next.interrupts = {
        ...view.interrupts,
        [event.interruptId]: { ...current, record: { ...current.record, expiresAt: event.expiresAt }, escalations: [...(current.escalations ?? []), step] },
      };
      return next;
    }
    case 'interrupt_reminded': {
      const current = view.interrupts[event.interruptId];
      if (!current || current.remindedAt) return next;
      next.interrupts = { ...view.interrupts, [event.interruptId]: { ...current, remindedAt: stored.at } };
      return next;
    }
    case 'grant_added':
      next.grants = { ...view.grants, [event.grant.id]: { grant: event.grant, addedAt: stored.at } };
      return next;
    case 'grant_revoked': {
      const current = view.grants[event.grantId];
      if (!current || current.revoked) return next;
      next.grants = { ...view.grants, [event.grantId]: { ...current, revoked: { by: event.by, at: stored.at } } };
      return next;
    }
    case 'context_compacted': {
      const { compaction } = event;
      // The summary call's cost counts like a step's.
      next.usage = addUsage(view.usage, compaction.usage, compaction.model);
      if (view.lastRun) next.lastRun = { ...view.lastRun, usage: addUsage(view.lastRun.usage, compaction.usage, compaction.model) };
      if (!event.scope) {
        const { throughMessageId, method, summary, tokensBefore, tokensAfter } = compaction;
        next.compactions = [...view.compactions, { throughMessageId, method, summary, tokensBefore, tokensAfter, at: stored.at }];
      }
      return withConversation(next, event.scope, (conversation) => ({
        ...conversation,
        contextCompactions: compaction.method === 'summary' ? [compaction] : [...(conversation.contextCompactions ?? []), compaction],
        measured: undefined,
      }));
    }
    case 'thread_forked':
      next.forkedFrom = event.from;
      next.inheritedToolCallIds = [...view.inheritedToolCallIds, ...event.inherited.map((effect) => effect.toolCallId)];
      next.droppedEffects = [...view.droppedEffects, ...(event.dropped ?? [])];
      return next;
    case 'step_started':
    case 'step_finished':
    case 'tool_progress':
      return next;
    case 'run_finished':
      next.lastRun = view.lastRun && { ...view.lastRun, outcome: event.outcome };
      if (event.stop) next.stoppedToolCallIds = [...view.stoppedToolCallIds, ...stoppedBy(view)];
      next.status =
        event.outcome.type === 'interrupt'
          ? 'interrupted'
          : event.outcome.type === 'success' && event.outcome.pendingToolCallIds?.length
            ? 'awaiting_tools'
            : 'idle';
      return next;
    case 'run_failed':
      next.lastRun = view.lastRun && {
        ...view.lastRun,
        error: { code: event.code, message: event.message, ...(event.details ? { details: event.details } : {}) },
      };
      next.status = 'error';
      // The reply the failure cut short, in the root thread (a task's reply is inside its delegation).
      if (view.lastRun?.partial && !view.lastRun.partial.scope) {
        const reference = event.details?.reference;
        next.failedReplies = [
          ...view.failedReplies,
          { messageId: view.lastRun.partial.messageId, code: event.code, message: event.message, ...(reference ? { reference } : {}) },
        ];
      }
      return next;
  }
}

export function reduceAll(events: StoredEvent[], initialState: JsonObject = {}, from: SessionView = emptyView(initialState)): SessionView {
  return events.reduce(reduce, from);
}

/** The conversation of a scope (the root thread when scope is undefined). */
export function conversationOf(view: SessionView, scope?: string): Conversation {
  if (scope === undefined) return view;
  return view.tasks[scope] ?? { messages: [], openToolCalls: [] };
}

function withConversation(view: SessionView, scope: string | undefined, change: (conversation: Conversation) => Conversation): SessionView {
  if (scope === undefined) return { ...view, ...change(view) };
  return { ...view, tasks: { ...view.tasks, [scope]: change(conversationOf(view, scope)) } };
}

/**
 * The calls a stop that ends the run cut: those it closed as cancelled, less any a person
 * withdrew by a decision, and any root call it left open.
 */
function stoppedBy(view: SessionView): string[] {
  const withdrawn = new Set(
    Object.values(view.interrupts)
      .filter((state) => state.decision?.status === 'cancelled')
      .map((state) => state.record.toolCallId),
  );
  const cut = (view.lastRun?.cancelledToolCallIds ?? []).filter((id) => !withdrawn.has(id));
  return [...new Set([...cut, ...view.openToolCalls.map((call) => call.id)])];
}

function withoutCall(calls: ToolCall[], toolCallId: string): ToolCall[] {
  return calls.filter((call) => call.id !== toolCallId);
}

/** Folds events not yet in the log onto a view, as if appended now: what the view will be. */
export function foldEvents(view: SessionView, events: SessionEvent[], at = new Date().toISOString()): SessionView {
  return events.reduce((next, event, index) => reduce(next, { seq: view.seq + index + 1, at, event }), view);
}

/** Every tool-call id the session used, in any conversation: a new call must not take one. */
export function toolCallIdsOf(view: SessionView): Set<string> {
  const ids = new Set<string>();
  for (const conversation of [view, ...Object.values(view.tasks)]) {
    for (const message of conversation.messages) {
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
    }
  }
  // An interrupt's call may have left the conversation (a retried step): its id stays bound.
  for (const state of Object.values(view.interrupts)) ids.add(state.record.toolCallId);
  return ids;
}
