// Delegated work (docs/hitl.md, "Inside a subagent"): the built-in delegation tool hands a task
// to a subagent, which works in a conversation of its own inside the run — bracketed by
// STEP_STARTED/STEP_FINISHED — and answers the call with its result. An approval raised inside
// it pauses the whole run and resumes inside the task.
import { randomUUID } from 'node:crypto';
import type { SessionEvent } from '../../store/events';
import type { ToolCall } from '../../store/messages';
import type { SessionView } from '../session';
import { DELEGATION_TOOL } from '../tools';
import type { Advance, ResultOutcome, Scope } from './run-types';

/** What a task uses of the run it works in. */
export interface TaskHost {
  /** The thread as the run last wrote it. */
  view(): SessionView;
  append(events: SessionEvent[]): Promise<void>;
  /** Advances a conversation (the task's) until it answers, pauses or fails. */
  advance(scope: Scope): Promise<Advance>;
  /** Answers a call with its result (and any state it changed). */
  recordResult(scope: Scope, call: ToolCall, outcome: ResultOutcome, before?: SessionEvent[], after?: SessionEvent[]): Promise<void>;
}

/**
 * The delegation tool: the subagent works the task in its own conversation, in the same
 * log, bracketed as a step. Its approvals pause the whole run and resume inside the task.
 */
export async function delegateTask(host: TaskHost, parent: Scope, call: ToolCall): Promise<Advance | { kind: 'done' }> {
  const { agent: name, task } = (call.input ?? {}) as { agent?: string; task?: string };
  const subagent = parent.agent.subagents.find((candidate) => candidate.name === name);
  if (!subagent || typeof task !== 'string' || !task) {
    await host.recordResult(parent, call, {
      ok: false,
      content: `${DELEGATION_TOOL} needs {agent, task}; agents: ${parent.agent.subagents.map((s) => s.name).join(', ')}.`,
      state: host.view().state,
    });
    return { kind: 'done' };
  }
  const scope: Scope = { id: `task:${call.id}`, agent: subagent, live: false, clientTools: [], model: subagent.model };
  // Every entry into the task and every exit from it is a step, so a replay shows them as the live stream did.
  await host.append([
    { type: 'step_started', stepName: subagent.name },
    ...(host.view().tasks[scope.id!]
      ? []
      : [{ type: 'message_added' as const, scope: scope.id, message: { id: randomUUID(), role: 'user' as const, content: task } }]),
  ]);
  const end = await host.advance(scope);
  const finished: SessionEvent = { type: 'step_finished', stepName: subagent.name };
  switch (end.kind) {
    case 'answered':
      await host.recordResult(parent, call, { ok: true, content: end.text, output: { agent: subagent.name, answer: end.text }, state: host.view().state }, [
        end.step,
        finished,
      ]);
      return { kind: 'done' };
    case 'cancelled':
      await host.recordResult(parent, call, { ok: false, content: `The ${subagent.name} task was stopped.`, state: host.view().state, status: 'cancelled' }, [
        ...end.before,
        finished,
      ]);
      return end;
    case 'awaiting-client':
      // A subagent has no browser tools; its client-shaped calls cannot be answered.
      await host.append([finished]);
      return { kind: 'failed', code: 'internal_error', message: `Subagent ${subagent.name} called a tool it does not have.` };
    case 'failed':
      return { ...end, before: [...(end.before ?? []), finished] };
    default:
      await host.append([finished]);
      return end;
  }
}
