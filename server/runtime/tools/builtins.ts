// Tools every deep agent has (README, "Add an agent"): a planner that writes state.todos, and a
// delegation tool that hands a task to a subagent (run by the turn loop itself).
import { tool } from 'ai';
import { z } from 'zod';
import type { DeepAgent } from '../../authoring';
import { handlerContext } from './handler-context';

const PLANNING_TOOL = 'write_todos';
export const DELEGATION_TOOL = 'delegate_task';

const todoSchema = z.object({
  id: z.string().min(1).optional(),
  title: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'done']).default('pending'),
});
type Todo = Required<z.infer<typeof todoSchema>>;

const writeTodos = tool({
  title: 'Update the plan',
  description: 'Write the plan: the full list of todos, replacing the previous one. Mark each pending, in_progress or done as work proceeds.',
  inputSchema: z.object({ todos: z.array(todoSchema) }),
  execute: async ({ todos }) => {
    const planned: Todo[] = todos.map((todo, index) => ({ ...todo, id: todo.id ?? String(index + 1) }));
    handlerContext().state.todos = planned;
    const done = planned.filter((todo) => todo.status === 'done').length;
    // The counts, and a line for a person: the plan itself is in the state, where the chat shows it.
    return { todos: planned.length, done, summary: `Planned ${planned.length} task${planned.length === 1 ? '' : 's'}, ${done} done.` };
  },
});

/** One per agent: a new tool (and schema) per model step would be converted to JSON Schema anew each time (tool-set.ts). */
const delegationTools = new WeakMap<DeepAgent, ReturnType<typeof makeDelegationTool>>();

function delegationTool(agent: DeepAgent) {
  let made = delegationTools.get(agent);
  if (!made) delegationTools.set(agent, (made = makeDelegationTool(agent)));
  return made;
}

function makeDelegationTool(agent: DeepAgent) {
  const names = agent.subagents.map((subagent) => subagent.name) as [string, ...string[]];
  return tool({
    title: 'Hand a task to a subagent',
    description: `Hand a task to a subagent and get its answer. Subagents: ${agent.subagents
      .map((subagent) => `${subagent.name} (${subagent.description || 'no description'})`)
      .join('; ')}.`,
    inputSchema: z.object({
      agent: z.enum(names).meta({ title: 'Subagent' }),
      task: z.string().min(1).meta({ title: 'Task', description: 'What the subagent is to do' }),
    }),
  });
}

/** The built-in tools of an agent, by name. The delegation tool has no execute: the turn loop runs it. */
export function builtinTools(agent: DeepAgent) {
  return {
    [PLANNING_TOOL]: writeTodos,
    ...(agent.subagents.length > 0 ? { [DELEGATION_TOOL]: delegationTool(agent) } : {}),
  };
}
