// The scripted model's phrase table (README, "Models"): the plain sentences the example agents'
// tools answer to, each with the call it makes. The data of scripted-reply.ts, which tries them in
// order on each clause of a message; adding a phrase is adding an entry.
import type { JSONObject, JSONSchema7 } from '@ai-sdk/provider';

/** One phrase the example agents understand; adding a phrase is adding an entry. */
interface Phrase {
  /** Tool names this phrase may call; the first one the agent offers is used. */
  tools: readonly string[];
  /** Shown in the fallback reply so a user knows what to type. */
  example: string;
  /**
   * Matched against one normalised clause (normaliseClause, scripted-reply.ts). Anchored at the
   * start, so it is tried at one position only, and run over whitespace-collapsed text, where
   * `\s+` is one space: a match costs time linear in the clause. A new pattern keeps to both.
   */
  pattern: RegExp;
  /** Builds the arguments; the tool's JSON Schema is there for choices such as enum values. */
  input: (match: RegExpMatchArray, inputSchema: JSONSchema7) => JSONObject;
}

const ID = String.raw`([A-Za-z0-9][\w-]*)`;

export const PHRASES: readonly Phrase[] = [
  {
    tools: ['lookupOrder'],
    example: 'look up order ord_42',
    pattern: new RegExp(String.raw`^(?:look\s*up|find|track|check|where\s+is|where's)\s+(?:my\s+|the\s+)?order\s+${ID}$`, 'i'),
    input: (m) => ({ orderId: m[1] }),
  },
  {
    tools: ['refundOrder'],
    example: 'refund order ord_42 for 19.99',
    pattern: new RegExp(String.raw`^refund\s+(?:order\s+)?${ID}\s+(?:for\s+)?\$?(\d+(?:\.\d+)?)$`, 'i'),
    input: (m) => ({ orderId: m[1], amount: Number(m[2]) }),
  },
  { tools: ['closeTicket'], example: 'close ticket T-7', pattern: new RegExp(String.raw`^close\s+ticket\s+${ID}$`, 'i'), input: (m) => ({ ticketId: m[1] }) },
  {
    tools: ['remindMe'],
    example: 'remind me in 10 seconds to check ord_42',
    pattern: /^remind\s+me\s+in\s+(\d+)\s+(seconds?|minutes?)\s+to\s+(.+)$/i,
    input: (m) => ({ text: m[3], inSeconds: Number(m[1]) * (/^m/i.test(m[2]!) ? 60 : 1) }),
  },
  {
    tools: ['write_todos'],
    example: 'plan a launch: write post, email list, tweet',
    pattern: /^plan\b[^:]*:\s*(.+)$/i,
    input: (m) => ({ todos: todoList(m[1]) }),
  },
  {
    tools: ['delegate_task'],
    example: 'research durable execution',
    pattern: /^research\s+(.+)$/i,
    input: (m, schema) => ({ agent: subagentName(schema), task: m[1] }),
  },
  // The web app's browser tools (components/browser-tools.tsx), offered with every chat run.
  {
    tools: ['confirm_action'],
    example: 'ask me to confirm deleting the draft',
    pattern: /^ask\s+me\s+to\s+confirm\s+(.+)$/i,
    input: (m) => ({ action: m[1]! }),
  },
  {
    tools: ['get_browser_context'],
    example: 'what time is it for me',
    pattern: /^(?:what(?:'s|\s+is)\s+the\s+time|what\s+time\s+is\s+it)(?:\s+(?:for\s+me|here|where\s+i\s+am))?\??$/i,
    input: () => ({}),
  },
  // The MCP demo agent's tools (server/agents/mcp-demo.ts), named <server>_<tool> (docs/mcp.md).
  {
    tools: ['demo_search_docs'],
    example: 'search the docs for refunds',
    pattern: /^(?:search|look\s+in)\s+the\s+docs\s+(?:for|about|on)\s+(.+)$/i,
    input: (m) => ({ topic: m[1]! }),
  },
  { tools: ['demo_record_note'], example: 'record a note: launch on Friday', pattern: /^record\s+a\s+note:?\s+(.+)$/i, input: (m) => ({ key: m[1]! }) },
  {
    tools: ['demo_schedule_review'],
    example: 'schedule a review of the launch plan',
    pattern: /^schedule\s+a\s+review\s+(?:of|for)\s+(.+)$/i,
    input: (m) => ({ topic: m[1]! }),
  },
  { tools: ['demo_connect_calendar'], example: 'connect my calendar', pattern: /^connect\s+(?:my|the|our)\s+calendar$/i, input: () => ({}) },
  {
    tools: ['demo_word_count'],
    example: 'count the words in: to be or not to be',
    pattern: /^count\s+the\s+words\s+(?:in|of):?\s+(.+)$/i,
    input: (m) => ({ text: m[1]! }),
  },
  { tools: ['ask_user', 'requestInput'], example: 'ask me a question', pattern: /^ask\s+me\b\s*(.*)$/i, input: (m) => ({ question: questionFrom(m[1]) }) },
  // The researcher searches its notes for whatever task it is handed.
  { tools: ['searchNotes'], example: 'launch timing', pattern: /^(?:research\s+)?(.+)$/i, input: (m) => ({ query: m[1] }) },
];

/** Items are separated by "," or "and"; single spaces, as the list comes from a normalised clause. */
const TODO_SEPARATOR = / ?, ?(?:and )?| and /i;

function todoList(list: string): JSONObject[] {
  const titles = list
    .split(TODO_SEPARATOR)
    .map((t) => t.trim())
    .filter(Boolean);
  return titles.map((title, i) => ({ id: String(i + 1), title: capitalise(title), status: 'pending' }));
}

/** "researcher" when the delegation tool offers it, else its first subagent. */
function subagentName(inputSchema: JSONSchema7): string {
  const agent = inputSchema.properties?.agent;
  const names = typeof agent === 'object' && Array.isArray(agent.enum) ? agent.enum.filter((n): n is string => typeof n === 'string') : [];
  return names.length === 0 || names.includes('researcher') ? 'researcher' : names[0];
}

function questionFrom(rest: string): string {
  const topic = rest.replace(/^:\s*/, '').trim();
  if (topic === '' || /^(?:a\s+question|something)$/i.test(topic)) return 'What should I do next?';
  const about = /^about\s+(.+)$/i.exec(topic);
  if (about) return `What can you tell me about ${about[1]}?`;
  const askFor = /^for\s+(.+)$/i.exec(topic);
  if (askFor) return `What is ${askFor[1]}?`;
  return topic.endsWith('?') ? capitalise(topic) : `${capitalise(topic)}?`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
