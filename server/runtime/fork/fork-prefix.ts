// What a fork's log starts with (docs/time-travel.md): the original's events up to the fork point,
// copied, closed so that nothing in them runs again. Pure: the same log and point give the same
// prefix, whichever process forks.
import { randomUUID } from 'node:crypto';
import type { InterruptRecord } from '../../store/pauses';
import type { DroppedEffect, ForkMode, InheritedEffect, SessionEvent, StoredEvent } from '../../store/events';
import type { JsonObject, ToolCall } from '../../store/messages';
import { Refusal } from '../errors';
import { reduceAll, type SessionView } from '../session';
import { notRunResults } from '../turn';

export interface ForkPrefix {
  /** The fork's first events, `thread_forked` among them. */
  events: SessionEvent[];
  /** The original's log was copied up to this seq. */
  throughSeq: number;
  inherited: InheritedEffect[];
  /** Effects the original made after the fork point: not in the fork, but they happened. */
  dropped: DroppedEffect[];
  /** Interrupts the fork opened afresh: the calls were waiting on a person at the fork point. */
  freshInterrupts: InterruptRecord[];
  /** The root conversation's messages as the fork has them. */
  view: SessionView;
}

export interface ForkPoint {
  /** The original thread's key. */
  threadId: string;
  atMessageId: string;
  mode: ForkMode;
  initialState: JsonObject;
  now?: Date;
}

/**
 * Events that belong to the model step before them: its calls' runs and results, their pauses
 * and state changes, a delegated task's work (scoped), the run's end. A fork at a step keeps
 * them; a decision, a new step or a new message is what comes after.
 */
function belongsToStep(event: SessionEvent): boolean {
  if ('scope' in event && event.scope) return true;
  return ['tool_started', 'tool_progress', 'tool_result', 'state_patched', 'interrupts_opened', 'step_started', 'step_finished', 'run_finished'].includes(
    event.type,
  );
}

/** The seq of the root event that added the message, and its role. */
function findMessage(log: StoredEvent[], messageId: string): { seq: number; role: string } | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const { seq, event } = log[index]!;
    if ('scope' in event && event.scope) continue;
    if ((event.type === 'message_added' || event.type === 'assistant_step' || event.type === 'tool_result') && event.message.id === messageId)
      return { seq, role: event.message.role };
  }
  return undefined;
}

/** Where the copy ends: with the message and what its step did (fork), or just before it (edit, regenerate). */
function cutSeq(log: StoredEvent[], point: ForkPoint): number {
  const found = findMessage(log, point.atMessageId);
  if (!found) throw new Refusal('not_found', `Thread "${point.threadId}" has no message "${point.atMessageId}".`, { what: 'message' });
  if (point.mode === 'edit' && found.role !== 'user')
    throw new Refusal('fork_point_invalid', `Message "${point.atMessageId}" is the ${found.role}'s; only a user message can be edited and resent.`);
  if (point.mode === 'regenerate' && found.role !== 'assistant')
    throw new Refusal('fork_point_invalid', `Message "${point.atMessageId}" is the ${found.role}'s; only an assistant reply can be regenerated.`);
  if (point.mode !== 'fork') return found.seq - 1;
  let through = found.seq;
  for (const { seq, event } of log) {
    if (seq <= found.seq) continue;
    if (!belongsToStep(event)) break;
    through = seq;
    if (event.type === 'run_finished') break;
  }
  return through;
}

/** Every interrupt id the events name, renamed; the interrupt table is keyed by id across sessions. */
function renameInterrupts(event: SessionEvent, rename: (id: string) => string): SessionEvent {
  switch (event.type) {
    case 'interrupts_opened':
      return { ...event, interrupts: event.interrupts.map((record) => ({ ...record, id: rename(record.id) })) };
    case 'interrupt_decided':
    case 'interrupt_voted':
    case 'interrupt_escalated':
    case 'interrupt_reminded':
      return {
        ...event,
        interruptId: rename(event.interruptId),
        ...('interrupt' in event && event.interrupt ? { interrupt: { ...event.interrupt, id: rename(event.interrupt.id) } } : {}),
      };
    case 'run_finished':
      return event.outcome.type === 'interrupt' ? { ...event, outcome: { ...event.outcome, interruptIds: event.outcome.interruptIds.map(rename) } } : event;
    default:
      return event;
  }
}

/** The same wait from now: an interrupt opened afresh gets the time it had when it opened, not what is left of it. */
function shifted(at: string | undefined, openedAt: string, now: Date): string | undefined {
  if (!at) return undefined;
  return new Date(now.getTime() + (new Date(at).getTime() - new Date(openedAt).getTime())).toISOString();
}

export function forkPrefix(log: StoredEvent[], point: ForkPoint): ForkPrefix {
  const now = point.now ?? new Date();
  let through = cutSeq(log, point);
  let copied = log.filter((stored) => stored.seq <= through);
  // A run whose only event is its start (the resent or regenerated message was its input) is not copied.
  while (copied.at(-1)?.event.type === 'run_started') copied = copied.slice(0, -1);
  through = copied.at(-1)?.seq ?? 0;
  const atCut = reduceAll(copied, point.initialState);

  // Interrupts waiting at the fork point are opened afresh in the fork; decided ones stay as history, renamed.
  const waiting = new Map(
    Object.values(atCut.interrupts)
      .filter((state) => !state.decision)
      .map((state) => [state.record.id, state]),
  );
  const renamed = new Map(Object.keys(atCut.interrupts).map((id) => [id, `int_${randomUUID()}`]));
  const rename = (id: string) => renamed.get(id) ?? id;
  const events: SessionEvent[] = [];
  for (const { event } of copied) {
    // Grants are a person's standing approval of the original thread: a fork asks again.
    if (event.type === 'grant_added' || event.type === 'grant_revoked') continue;
    if (event.type === 'interrupts_opened') {
      const decided = event.interrupts.filter((record) => !waiting.has(record.id));
      if (decided.length > 0) events.push(renameInterrupts({ ...event, interrupts: decided }, rename));
      continue;
    }
    if ((event.type === 'interrupt_voted' || event.type === 'interrupt_escalated' || event.type === 'interrupt_reminded') && waiting.has(event.interruptId))
      continue;
    events.push(renameInterrupts(event, rename));
  }

  const waitingCalls = new Set([...waiting.values()].map((state) => state.record.toolCallId));
  for (const [scope, conversation] of [[undefined, atCut] as const, ...Object.entries(atCut.tasks)]) {
    // A call with no result that waits on no one is closed, so it never runs in the fork.
    const closed = conversation.openToolCalls.filter((call) => !waitingCalls.has(call.id));
    events.push(...notRunResults(closed, 'Not run in this thread: the call had not finished when the thread was forked.', scope));
  }
  const inherited: InheritedEffect[] = [];
  for (const { event } of copied) {
    if (event.type === 'tool_result' && !event.status && atCut.toolAttempts[event.message.toolCallId] !== undefined)
      inherited.push({ toolCallId: event.message.toolCallId, toolName: event.message.toolName });
  }
  const dropped = droppedEffects(log, through);
  events.push({
    type: 'thread_forked',
    from: { threadId: point.threadId, atMessageId: point.atMessageId, mode: point.mode, throughSeq: through },
    inherited,
    ...(dropped.length > 0 ? { dropped } : {}),
  });

  const freshInterrupts: InterruptRecord[] = [...waiting.values()].map(({ record, openedAt }) => {
    const { remindAt, expiresAt, ...rest } = record;
    const expires = shifted(expiresAt, openedAt, now);
    const remind = shifted(remindAt, openedAt, now);
    return { ...rest, id: rename(record.id), ...(expires ? { expiresAt: expires } : {}), ...(remind ? { remindAt: remind } : {}) };
  });
  if (freshInterrupts.length > 0) events.push({ type: 'interrupts_opened', interrupts: freshInterrupts });
  // A run the fork point fell inside ends there: the fork is at rest, waiting on its fresh interrupts or for a message.
  const run = atCut.lastRun;
  if (run && !run.outcome && !run.error) {
    events.push({
      type: 'run_finished',
      runId: run.runId,
      outcome: freshInterrupts.length > 0 ? { type: 'interrupt', interruptIds: freshInterrupts.map((record) => record.id) } : { type: 'success' },
    });
  }
  const view = reduceAll(
    events.map((event, index) => ({ seq: index + 1, at: now.toISOString(), event })),
    point.initialState,
  );
  return { events, throughSeq: through, inherited, dropped, freshInterrupts, view };
}

/** The root thread's calls that ran after `through` in the original: effects the fork leaves behind. */
function droppedEffects(log: StoredEvent[], through: number): DroppedEffect[] {
  const calls = new Map<string, ToolCall>();
  const started = new Set<string>();
  const dropped: DroppedEffect[] = [];
  for (const { seq, event } of log) {
    if ('scope' in event && event.scope) continue;
    if (event.type === 'assistant_step') for (const call of event.message.toolCalls ?? []) calls.set(call.id, call);
    if (event.type === 'tool_started') started.add(event.toolCallId);
    if (seq > through && event.type === 'tool_result' && !event.status && started.has(event.message.toolCallId)) {
      const call = calls.get(event.message.toolCallId);
      if (call) dropped.push({ toolCallId: call.id, toolName: call.name, input: call.input, output: event.output });
    }
  }
  return dropped;
}
