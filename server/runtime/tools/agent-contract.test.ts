// agentContract() (docs/seed-names.md, "The handler context"): a shared tool checks, at its first
// call, that it runs in the agent its contract names, and reads the state as that agent keeps it.
import { describe, expect, it } from 'vitest';
import { agentContract, handlerContext, runWithHandlerContext, type HandlerContext } from './handler-context';

type BoardState = { todos: Array<{ title: string; done: boolean }> };
const boardContract = agentContract<BoardState>('taskboard');

/** A tool body shared by name: it marks every todo done in whatever agent it is added to. */
function finishAll(): number {
  const ctx = handlerContext(boardContract);
  for (const todo of ctx.state.todos) todo.done = true;
  return ctx.state.todos.length;
}

function contextIn(agent: string, state: BoardState): HandlerContext {
  return {
    event: { id: 'call_1', toolCallId: 'call_1', toolName: 'finishAll', input: {} },
    idempotencyKey: 'idem_test',
    attempt: 1,
    session: { id: 'o1/t1', agent, ownerId: 'o1', durable: true, schedule: async () => ({ id: 't', fireAt: '', created: true }) },
    signal: new AbortController().signal,
    state,
  };
}

describe('agentContract()', () => {
  it('lets a tool run in the agent its contract names, with the state typed as that agent keeps it', () => {
    const state = { todos: [{ title: 'Write post', done: false }] };
    expect(runWithHandlerContext(contextIn('taskboard', state), finishAll)).toBe(1);
    expect(state.todos[0]!.done).toBe(true);
  });

  it('refuses, before it touches anything, a tool added to another agent', () => {
    const state = { todos: [{ title: 'Write post', done: false }] };
    expect(() => runWithHandlerContext(contextIn('helpdesk', state), finishAll)).toThrow(
      'contract is for agent "taskboard", but it runs in agent "helpdesk" (call call_1)',
    );
    expect(state.todos[0]!.done).toBe(false);
  });

  it('takes the agent itself, and refuses a contract that names none', () => {
    expect(agentContract({ name: 'taskboard' }).agent).toBe('taskboard');
    expect(() => agentContract('')).toThrow('name the agent');
  });
});
