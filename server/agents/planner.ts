import { defineDeepAgent } from '../define';
import researcher from './researcher';

// The planner's tools are the built-ins (write_todos, delegate_task) plus the frontend
// tools the web app declares per run (they run in the browser).
export default defineDeepAgent({
  name: 'planner',
  description: 'Plans work into a live task list, keeps an editable draft, and delegates research.',
  model: 'openai/gpt-4o-mini',
  instructions:
    'You plan work. Write the plan with write_todos and keep each item\'s status current. Delegate research to the researcher. The shared state has a "draft" the user edits; use it when asked.',
  editableState: { draft: { type: 'string', maxLength: 10_000 } },
  initialState: { todos: [], draft: '' },
  subagents: [researcher],
});
