// An agent's offline phrases (README, "Add an agent"): the plain sentences its tools answer to when
// the built-in scripted model stands in for a real one (no model key). The scripted model reads
// them from the agent it runs for (server/models/scripted-reply.ts); they are checked here, when
// the agent is defined, so a broken phrase fails at start-up rather than in someone's chat.
import type { JSONObject, JSONSchema7 } from '@ai-sdk/provider';

/** One sentence a person may type, and the tool call it makes offline. */
export interface OfflinePhrase {
  /** What to type, written as a person would: the scripted model's fallback reply offers it, and by default it is a chip in an empty chat. */
  example: string;
  /**
   * Matched against one clause of the message: whitespace collapsed to single spaces, a leading
   * "please" and trailing punctuation removed. Anchored at both ends (`^…$`), so it is tried at
   * one position only, and written so that `\s+` meets one space: a match then costs time linear
   * in the clause, and no message can stall the server (README, "Models").
   */
  pattern: RegExp;
  /** The tool it calls: one of the agent's tools, `<server>_<tool>` of its MCP servers, or a built-in (write_todos, delegate_task). */
  call: string;
  /** The call's arguments from the match; the tool's JSON Schema is there for choices such as enum values. */
  input: (match: RegExpMatchArray, inputSchema: JSONSchema7) => JSONObject;
}

/** What an agent declares for the offline model: `offline: { phrases: [...] }`. */
export interface OfflineConfig {
  /** Tried in order, after the scripted model's own (the built-in tools', the web app's browser tools'). */
  phrases?: readonly OfflinePhrase[];
}

/** The tools every deep agent may have without declaring them (server/runtime/tools/builtins.ts). */
const BUILT_IN_TOOLS = ['write_todos', 'delegate_task'];

/** At most this many phrases: the scripted model tries each on every clause of a message. */
const MAX_PHRASES = 50;

/**
 * The agent's phrases, checked: each example one line that its own pattern matches, each pattern
 * anchored and stateless (no `g` or `y` flag: `exec` would remember where the last match ended),
 * each call a tool the agent has. `hasTool` says whether a name is one of its tools.
 */
export function checkOfflinePhrases(agent: string, offline: OfflineConfig | undefined, hasTool: (name: string) => boolean): OfflinePhrase[] {
  if (offline === undefined) return [];
  const fail = (message: string): never => {
    throw new Error(`Agent "${agent}": offline.${message}`);
  };
  const phrases: unknown = offline.phrases ?? [];
  if (!Array.isArray(phrases) || phrases.length > MAX_PHRASES) return fail(`phrases is a list of at most ${MAX_PHRASES} phrases.`);
  for (const [index, phrase] of (phrases as OfflinePhrase[]).entries()) {
    const at = `phrases[${index}]`;
    const { example, pattern, call, input } = phrase ?? {};
    if (typeof example !== 'string' || !example.trim() || example.length > 120 || /[\r\n]/.test(example))
      fail(`${at}.example is one line of 1 to 120 characters.`);
    if (!(pattern instanceof RegExp)) return fail(`${at}.pattern is a RegExp.`);
    if (!pattern.source.startsWith('^') || !pattern.source.endsWith('$'))
      fail(`${at}.pattern ${String(pattern)} must be anchored at both ends (^…$), so a match costs time linear in the message.`);
    if (pattern.global || pattern.sticky) fail(`${at}.pattern ${String(pattern)} must not have the g or y flag.`);
    if (!pattern.test(example)) fail(`${at}.example "${example}" does not match its own pattern ${String(pattern)}.`);
    if (typeof call !== 'string' || !(hasTool(call) || BUILT_IN_TOOLS.includes(call)))
      fail(`${at}.call names ${JSON.stringify(call)}, which is not one of its tools (nor write_todos, delegate_task or "<server>_<tool>" of its mcpServers).`);
    if (typeof input !== 'function') fail(`${at}.input is a function of the match that returns the call's arguments.`);
  }
  return [...(phrases as OfflinePhrase[])];
}
