// The scripted model's own phrases (README, "Models"): those of the tools it meets whatever the
// agent — the built-ins every deep agent has (write_todos; delegate_task with subagents) and the
// browser tools the web app offers with every chat run (components/browser-tools.tsx). An agent's
// own phrases live in its file (`offline.phrases`, server/authoring/offline-phrases.ts); scripted-reply.ts
// tries these first, then the agent's.
import type { JSONObject, JSONSchema7 } from '@ai-sdk/provider';
import type { OfflinePhrase } from '../authoring/offline-phrases';

export const BUILT_IN_PHRASES: readonly OfflinePhrase[] = [
  {
    call: 'write_todos',
    example: 'plan a launch: write post, email list, tweet',
    pattern: /^plan\b[^:]*:\s*(.+)$/i,
    input: (m) => ({ todos: todoList(m[1]!) }),
  },
  {
    call: 'delegate_task',
    example: 'research durable execution',
    pattern: /^research\s+(.+)$/i,
    input: (m, schema) => ({ agent: subagentName(schema), task: m[1] }),
  },
  {
    call: 'confirm_action',
    example: 'ask me to confirm deleting the draft',
    pattern: /^ask\s+me\s+to\s+confirm\s+(.+)$/i,
    input: (m) => ({ action: m[1]! }),
  },
  {
    call: 'get_browser_context',
    example: 'what time is it for me',
    pattern: /^(?:what(?:'s|\s+is)\s+the\s+time|what\s+time\s+is\s+it)(?:\s+(?:for\s+me|here|where\s+i\s+am))?\??$/i,
    input: () => ({}),
  },
];

/** Items are separated by "," or "and"; single spaces, as the list comes from a normalised clause. */
const TODO_SEPARATOR = / ?, ?(?:and )?| and /i;

function todoList(list: string): JSONObject[] {
  const titles = list
    .split(TODO_SEPARATOR)
    .map((t) => t.trim())
    .filter(Boolean);
  return titles.map((title, i) => ({ id: String(i + 1), title: title.charAt(0).toUpperCase() + title.slice(1), status: 'pending' }));
}

/** The first subagent the delegation tool offers (its `agent` enum lists them: runtime/tools/builtins.ts). */
function subagentName(inputSchema: JSONSchema7): string {
  const agent = inputSchema.properties?.agent;
  const names = typeof agent === 'object' && Array.isArray(agent.enum) ? agent.enum.filter((n): n is string => typeof n === 'string') : [];
  return names[0] ?? '';
}
