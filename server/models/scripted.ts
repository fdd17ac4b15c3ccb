// The built-in scripted model (README, "Models"): a real AI SDK LanguageModelV4 that needs no network
// and no key. It reads the prompt and answers by fixed rules, so every demo flow of the
// example agents and every test can be driven from plain user text:
//
//   last message is ours         → "Is there anything else I can do?" (never repeat a call)
//   after a tool result          → text quoting each result ("refundOrder returned: {…}",
//                                  "closeTicket failed: …", "refundOrder was denied: …")
//   fail | simulate model error  → doStream/doGenerate throw an APICallError (not retryable)
//   fail after N tokens          → N text tokens, then an `error` part mid-stream
//   fail once after N tokens     → the same on a turn's first attempt; a retry of the turn
//                                  (providerOptions.stackbone.attempt > 1) replies in full
//                                  ("slowly …" paces either like a slow reply)
//   reply with N tokens          → exactly N text deltas "token1 token2 … tokenN"
//   (or: say N words)
//   slowly reply with N tokens   → the same, one delta every 50 ms (a turn long enough to
//                                  refresh, stop or join while it streams)
//   call <tool> {json}           → one call of that tool with those arguments ({} if absent)
//   call a {…}; call b {…}       → one step with both calls (at most 16: more get a reply saying
//                                  so and no call; JSON nested deeper than 64 levels is refused)
//   a phrase from PHRASES        → the matching tool call(s); "A and B" / "A; B" give one
//                                  call per clause in the same step when every clause matches
//   anything else                → a short reply quoting the text and listing what to try
//   over 2,000 characters        → that reply, saying the message is too long to read as a
//                                  request (only a `call` clause is read at any length)
//
// Every decision takes time linear in the message (README, "Models"): a model that a long
// message stalls for seconds blocks the server's event loop, so leases lapse and recovery
// re-runs tools. Patterns run over whitespace-collapsed text or are anchored; see matchClauses.
//
// Text streams one delta per word (leading whitespace kept, so the deltas concatenate to the
// reply). Tool-call ids are random (`call_<hex>`); everything else is a function of the prompt.
import {
  APICallError,
  type JSONObject,
  type JSONSchema7,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4FinishReason,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
  type LanguageModelV4ToolResultPart,
  type LanguageModelV4Usage,
} from '@ai-sdk/provider';

// ─── Types ──────────────────────────────────────────────────────────────────────────────

/** `model.provider` of every scripted model: how the runtime and the UI recognise it. */
export const SCRIPTED_PROVIDER = 'scripted';

export interface ScriptedModelOptions {
  /** Reported as `model.modelId`; resolve.ts passes the agent's original model string. */
  modelId?: string;
  /** Wait this long before each stream part after the first (0: no timers at all). */
  delayMs?: number;
}

export interface ScriptedToolCall {
  toolName: string;
  input: JSONObject;
}

/** What the model decided to do with a prompt; the stream and the generate result render it. */
export type ScriptedReply =
  /** paceMs: a pause before each part, whatever the model's own delay. */
  | { kind: 'text'; text: string; failAfterText?: boolean; paceMs?: number }
  | { kind: 'tool-calls'; calls: ScriptedToolCall[] }
  | { kind: 'fail' };

/** One phrase the example agents understand; adding a phrase is adding an entry. */
interface Phrase {
  /** Tool names this phrase may call; the first one the agent offers is used. */
  tools: readonly string[];
  /** Shown in the fallback reply so a user knows what to type. */
  example: string;
  /**
   * Matched against one normalised clause (see normaliseClause). Anchored at the start, so it is
   * tried at one position only, and run over whitespace-collapsed text, where `\s+` is one
   * space: a match costs time linear in the clause. A new pattern keeps to both.
   */
  pattern: RegExp;
  /** Builds the arguments; the tool's JSON Schema is there for choices such as enum values. */
  input: (match: RegExpMatchArray, inputSchema: JSONSchema7) => JSONObject;
}

/** The function tools on offer, by name, with their input JSON Schemas. */
export type OfferedTools = ReadonlyMap<string, JSONSchema7>;

// ─── The phrase table ───────────────────────────────────────────────────────────────────

const ID = String.raw`([A-Za-z0-9][\w-]*)`;

export const PHRASES: readonly Phrase[] = [
  { tools: ['lookupOrder'], example: 'look up order ord_42',
    pattern: new RegExp(String.raw`^(?:look\s*up|find|track|check|where\s+is|where's)\s+(?:my\s+|the\s+)?order\s+${ID}$`, 'i'),
    input: (m) => ({ orderId: m[1] }) },
  { tools: ['refundOrder'], example: 'refund order ord_42 for 19.99',
    pattern: new RegExp(String.raw`^refund\s+(?:order\s+)?${ID}\s+(?:for\s+)?\$?(\d+(?:\.\d+)?)$`, 'i'),
    input: (m) => ({ orderId: m[1], amount: Number(m[2]) }) },
  { tools: ['closeTicket'], example: 'close ticket T-7',
    pattern: new RegExp(String.raw`^close\s+ticket\s+${ID}$`, 'i'),
    input: (m) => ({ ticketId: m[1] }) },
  { tools: ['remindMe'], example: 'remind me in 10 seconds to check ord_42',
    pattern: /^remind\s+me\s+in\s+(\d+)\s+(seconds?|minutes?)\s+to\s+(.+)$/i,
    input: (m) => ({ text: m[3], inSeconds: Number(m[1]) * (/^m/i.test(m[2]!) ? 60 : 1) }) },
  { tools: ['write_todos'], example: 'plan a launch: write post, email list, tweet',
    pattern: /^plan\b[^:]*:\s*(.+)$/i,
    input: (m) => ({ todos: todoList(m[1]) }) },
  { tools: ['delegate_task'], example: 'research durable execution',
    pattern: /^research\s+(.+)$/i,
    input: (m, schema) => ({ agent: subagentName(schema), task: m[1] }) },
  // The web app's browser tools (components/browser-tools.tsx), offered with every chat run.
  { tools: ['confirm_action'], example: 'ask me to confirm deleting the draft',
    pattern: /^ask\s+me\s+to\s+confirm\s+(.+)$/i,
    input: (m) => ({ action: m[1]! }) },
  { tools: ['get_browser_context'], example: 'what time is it for me',
    pattern: /^(?:what(?:'s|\s+is)\s+the\s+time|what\s+time\s+is\s+it)(?:\s+(?:for\s+me|here|where\s+i\s+am))?\??$/i,
    input: () => ({}) },
  { tools: ['ask_user', 'requestInput'], example: 'ask me a question',
    pattern: /^ask\s+me\b\s*(.*)$/i,
    input: (m) => ({ question: questionFrom(m[1]) }) },
  // The researcher searches its notes for whatever task it is handed.
  { tools: ['searchNotes'], example: 'launch timing',
    pattern: /^(?:research\s+)?(.+)$/i,
    input: (m) => ({ query: m[1] }) },
];

/** Items are separated by "," or "and"; single spaces, as the list comes from a normalised clause. */
const TODO_SEPARATOR = / ?, ?(?:and )?| and /i;

function todoList(list: string): JSONObject[] {
  const titles = list.split(TODO_SEPARATOR).map((t) => t.trim()).filter(Boolean);
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

// ─── Deciding the reply ─────────────────────────────────────────────────────────────────

/** The pause between parts of a "slowly" reply. */
const SLOW_PACE_MS = 50;

/** Replies longer than this are refused: "reply with N tokens" is for tests, not for OOM. */
const MAX_SCRIPTED_TOKENS = 100_000;

/**
 * A message longer than this is not read as a command or a phrase: the reply is the fallback,
 * saying so. Not its first 2,000 characters either: a request cut short is another request
 * ("refund order ord_42 for 19.99" cut after "for 1" refunds 1). README, "Models".
 */
export const MAX_PHRASE_TEXT_CHARS = 2_000;

/**
 * At most this many `call` clauses make one step. The runtime stores every call of a step and
 * then runs it (or holds it for approval), so without a cap one 1 MB message of "call x {}; …"
 * is about 90,000 calls. A message with more gets a reply saying so and no call at all: its first
 * 16 calls alone would be another request. README, "Models".
 */
export const MAX_CALLS_PER_STEP = 16;

/**
 * How deep the JSON arguments of a `call` may nest: the limit a request body has
 * (MAX_JSON_DEPTH, server/http/body.ts), which message text does not pass through. JSON.parse
 * reads any depth, but what comes after walks the value recursively (JSON.stringify of the
 * call's input, the AI SDK, the store): 100,000 levels overflow the stack there.
 */
export const MAX_CALL_JSON_DEPTH = 64;

/**
 * How much phrase matching the decisions of this process have done: candidate clauses tried
 * and their characters. scripted.test.ts reads it to check that the work stays linear in the
 * message and is nothing for a message over MAX_PHRASE_TEXT_CHARS.
 */
export const phraseMatchWork = { candidates: 0, chars: 0 };

/** The whole decision, pure: a prompt and the names of the tools on offer → a reply. */
export function decideReply(prompt: LanguageModelV4Prompt, tools: OfferedTools, attempt = 1): ScriptedReply {
  // System messages may be appended anywhere (context, state); they never decide the reply.
  const last = prompt.findLast((message) => message.role !== 'system');
  if (last?.role === 'tool') return { kind: 'text', text: describeToolMessage(last.content) };
  // Ending on our own message: replaying the user's request could loop a tool call forever.
  if (last?.role === 'assistant') return { kind: 'text', text: 'Is there anything else I can do?' };

  const text = lastUserText(prompt);
  // A `call` clause is read at any length (its JSON may be long, and reading it is linear).
  // No command or phrase starts with "call", so reading it first changes no other reply.
  const explicit = explicitCalls(text, tools);
  if (explicit) return explicit;
  if (text.length > MAX_PHRASE_TEXT_CHARS) return { kind: 'text', text: fallbackText(text, tools) };

  const plain = trimTrailing(text, /[.!\s]/).toLowerCase();
  if (plain === 'fail' || plain === 'simulate model error') return { kind: 'fail' };

  const failAfter = /^(slowly\s+)?fail\s+(once\s+)?after\s+(\d+)\s+(?:tokens?|words?)$/i.exec(plain);
  if (failAfter) {
    const n = Math.min(Number(failAfter[3]), MAX_SCRIPTED_TOKENS);
    return { kind: 'text', text: countedTokens(n), failAfterText: !failAfter[2] || attempt <= 1, ...(failAfter[1] ? { paceMs: SLOW_PACE_MS } : {}) };
  }

  const counted = /^(slowly\s+)?(?:reply\s+with|say)\s+(\d+)\s+(?:tokens?|words?)$/i.exec(plain);
  if (counted) {
    const n = Number(counted[2]);
    if (n > MAX_SCRIPTED_TOKENS) return { kind: 'text', text: `I can reply with at most ${MAX_SCRIPTED_TOKENS} tokens.` };
    return { kind: 'text', text: countedTokens(n), ...(counted[1] ? { paceMs: SLOW_PACE_MS } : {}) };
  }

  const calls = matchClauses(text, tools);
  if (calls) return { kind: 'tool-calls', calls };

  return { kind: 'text', text: fallbackText(text, tools) };
}

/**
 * The text without the trailing characters `charClass` (one character) matches. A loop from the
 * end: `/[…]+$/` tries every position of a long run that is not at the end, scanning the rest
 * of the run from each (quadratic).
 */
function trimTrailing(text: string, charClass: RegExp): string {
  let end = text.length;
  while (end > 0 && charClass.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

function countedTokens(n: number): string {
  return Array.from({ length: n }, (_, i) => `token${i + 1}`).join(' ');
}

/** Anchored at the start, so tried at one position: linear in the clause. */
const EXPLICIT_CALL = /^\s*(?:please\s+)?call\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/i;
/** A `call` clause starts here. Sticky: tried only where lastIndex says, never scanned for. */
const CALL_OPENING = /\s*(?:please\s+)?call\s/iy;

/**
 * The text cut at each ";" that a `call` clause follows. Only the whitespace after each ";" is
 * read again, and those runs are disjoint, so this is linear; `split(/\s*;\s*(?=…)/)` rescanned
 * a run of spaces from each of its positions (quadratic).
 */
function callClauses(text: string): string[] {
  const clauses: string[] = [];
  let start = 0;
  for (let semicolon = text.indexOf(';'); semicolon !== -1; semicolon = text.indexOf(';', semicolon + 1)) {
    CALL_OPENING.lastIndex = semicolon + 1;
    if (!CALL_OPENING.test(text)) continue;
    clauses.push(text.slice(start, semicolon));
    start = semicolon + 1;
  }
  clauses.push(text.slice(start));
  return clauses;
}

/** `call a {…}` — or `call a {…}; call b {…}`, one step with a call per clause. */
function explicitCalls(text: string, tools: OfferedTools): ScriptedReply | undefined {
  const clauses = callClauses(text);
  if (!EXPLICIT_CALL.test(clauses[0]!)) return undefined;
  // Counted before any clause's JSON is read: the count alone decides.
  if (clauses.length > MAX_CALLS_PER_STEP) {
    return { kind: 'text', text: `I can make at most ${MAX_CALLS_PER_STEP} tool calls in one step, and this message asks for ${clauses.length}, so I made none. Send at most ${MAX_CALLS_PER_STEP} \`call\` clauses in a message.` };
  }
  // Every clause must be a call, or none is made: the first clause that is not one says why.
  // A later clause starts with "call" (that is where callClauses cuts) but may name no tool.
  const replies = clauses.map((clause) => {
    const match = EXPLICIT_CALL.exec(clause);
    return match ? explicitCall(match[1]!, match[2]!.trim(), tools) : unreadableCall(clause);
  });
  const failed = replies.find((reply) => reply.kind !== 'tool-calls');
  if (failed) return failed;
  return { kind: 'tool-calls', calls: replies.flatMap((reply) => (reply.kind === 'tool-calls' ? reply.calls : [])) };
}

function unreadableCall(clause: string): ScriptedReply {
  const trimmed = clause.trim();
  const quoted = trimmed.length > 100 ? `${trimmed.slice(0, 100)}…` : trimmed;
  return { kind: 'text', text: `I could not read "${quoted}" as a call, so I made none. Write it as: call <toolName> {"key": "value"}` };
}

function explicitCall(toolName: string, rawArgs: string, tools: OfferedTools): ScriptedReply {
  if (!tools.has(toolName)) {
    const offer = tools.size ? `Available tools: ${[...tools.keys()].join(', ')}.` : 'This agent has no tools.';
    return { kind: 'text', text: `I cannot call ${toolName}: there is no tool by that name here. ${offer}` };
  }
  const args = rawArgs.replace(/^[.!?]+$/, '');
  if (args === '') return { kind: 'tool-calls', calls: [{ toolName, input: {} }] };
  const usage = `Write it as: call ${toolName} {"key": "value"}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'text', text: `I could not call ${toolName}: the arguments are not valid JSON (${reason}). ${usage}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { kind: 'text', text: `I could not call ${toolName}: the arguments must be a JSON object. ${usage}` };
  }
  if (nestsDeeperThan(parsed, MAX_CALL_JSON_DEPTH)) {
    return { kind: 'text', text: `I could not call ${toolName}: the arguments are nested deeper than ${MAX_CALL_JSON_DEPTH} levels, the most I read.` };
  }
  return { kind: 'tool-calls', calls: [{ toolName, input: parsed as JSONObject }] };
}

/**
 * Whether a parsed JSON value has an object or array more than `maxDepth` levels down (the value
 * itself is level 1), counted as server/http/body.ts counts a request body. Iterative, so the
 * check cannot overflow the stack that the value would.
 */
function nestsDeeperThan(root: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Clauses are joined by these, in whitespace-collapsed text; the capture keeps them so clauses
 * can be re-joined. With at most one space between words, trying the pattern at a position
 * costs O(1), so the split is linear. Over raw text, `\s*,?\s+and\s+` shared each run of
 * spaces between `\s*` and `\s+` in every way, from each position of the run: cubic, 7 s for a
 * message with 4,000 spaces in a row.
 */
const CLAUSE_SEPARATOR = /( ?; ?| ?,? and )/i;
/**
 * Past this many clauses only the whole text is tried. The search tries at most
 * MAX_CLAUSES × (MAX_CLAUSES + 1) / 2 = 78 candidate clauses, none longer than the text.
 */
const MAX_CLAUSES = 12;

/**
 * Split the text into consecutive clauses that each match a phrase, preferring longer
 * clauses ("plan x: a and b" stays one todo list). Undefined when no such split exists.
 */
function matchClauses(text: string, tools: OfferedTools): ScriptedToolCall[] | undefined {
  const collapsed = collapseWhitespace(text);
  const pieces = collapsed.split(CLAUSE_SEPARATOR);
  const clauseCount = (pieces.length + 1) / 2;
  if (clauseCount > MAX_CLAUSES) {
    const call = matchPhrase(collapsed, tools);
    return call && [call];
  }
  const join = (from: number, to: number) => pieces.slice(from * 2, to * 2 - 1).join('');
  const dead = new Set<number>();
  const from = (start: number): ScriptedToolCall[] | undefined => {
    if (start === clauseCount) return [];
    if (dead.has(start)) return undefined;
    for (let end = clauseCount; end > start; end--) {
      const call = matchPhrase(join(start, end), tools);
      const rest = call && from(end);
      if (call && rest) return [call, ...rest];
    }
    dead.add(start);
    return undefined;
  };
  return from(0);
}

/** One space for each run of whitespace, none at the ends: what every pattern after the split reads. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `clause`: whitespace-collapsed (collapseWhitespace). */
function matchPhrase(clause: string, tools: OfferedTools): ScriptedToolCall | undefined {
  const normalised = normaliseClause(clause);
  phraseMatchWork.candidates++;
  phraseMatchWork.chars += normalised.length;
  for (const phrase of PHRASES) {
    const toolName = phrase.tools.find((name) => tools.has(name));
    const match = toolName && phrase.pattern.exec(normalised);
    if (toolName && match) return { toolName, input: phrase.input(match, tools.get(toolName) ?? {}) };
  }
  return undefined;
}

/** Politeness and end punctuation do not change what is asked. `clause`: whitespace-collapsed. */
function normaliseClause(clause: string): string {
  const unprefixed = clause.trim().replace(/^(?:please|can you|could you|would you) /i, '');
  return trimTrailing(unprefixed, /[ .!?]/).replace(/ ?,? ?please$/i, '');
}

function fallbackText(text: string, tools: OfferedTools): string {
  const examples = PHRASES.filter((p) => p.tools.some((t) => tools.has(t))).map((p) => `"${p.example}"`);
  const [firstTool] = tools.keys();
  const genericCall = firstTool ? `"call ${firstTool} {…}"` : undefined;
  const tries = [...examples, ...(genericCall ? [genericCall] : []), '"reply with 20 tokens"'];
  const quoted = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  const opening = quoted ? `You said: "${quoted}".` : 'Hello!';
  const tooLong = text.length > MAX_PHRASE_TEXT_CHARS ? ` That is more than the ${MAX_PHRASE_TEXT_CHARS} characters I read as a request.` : '';
  return `${opening}${tooLong} I am the built-in scripted model (offline, deterministic). Try: ${tries.join(', ')}.`;
}

// ─── Reading the prompt ─────────────────────────────────────────────────────────────────

function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role !== 'user') continue;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('').trim();
  }
  return '';
}

type ToolMessageContent = Extract<LanguageModelV4Prompt[number], { role: 'tool' }>['content'];

function describeToolMessage(content: ToolMessageContent): string {
  const lines = content.flatMap((part) => (part.type === 'tool-result' ? [describeToolResult(part)] : []));
  if (lines.length > 0) return lines.join('\n');
  const denied = content.some((part) => part.type === 'tool-approval-response' && !part.approved);
  return denied ? 'Understood: the tool call was denied.' : 'Understood: the tool call was approved.';
}

function describeToolResult({ toolName, output }: LanguageModelV4ToolResultPart): string {
  switch (output.type) {
    case 'text':
      return `${toolName} returned: ${output.value}`;
    case 'json':
      return `${toolName} returned: ${JSON.stringify(output.value)}`;
    case 'error-text':
      return `${toolName} failed: ${output.value}`;
    case 'error-json':
      return `${toolName} failed: ${JSON.stringify(output.value)}`;
    case 'execution-denied':
      return output.reason ? `${toolName} was denied: ${output.reason}` : `${toolName} was denied.`;
    case 'content':
      return `${toolName} returned: ${output.value.map((item) => (item.type === 'text' ? item.text : item.type === 'file' ? `[${item.mediaType}]` : '')).join(' ')}`;
  }
}

// ─── Rendering the reply ────────────────────────────────────────────────────────────────

/** Words with their leading whitespace; concatenated they give back the text exactly. */
export function wordTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const countWords = (text: string) => text.match(/\S+/g)?.length ?? 0;

function promptWords(prompt: LanguageModelV4Prompt): number {
  let words = 0;
  for (const message of prompt) {
    if (message.role === 'system') {
      words += countWords(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') words += countWords(part.text);
      else if (part.type === 'tool-call') words += countWords(JSON.stringify(part.input ?? null));
      else if (part.type === 'tool-result') words += countWords(JSON.stringify(part.output));
    }
  }
  return words;
}

/** Usage in words: close enough to tokens for budgets and displays. */
function usageOf(prompt: LanguageModelV4Prompt, textWords: number, toolWords: number): LanguageModelV4Usage {
  const input = promptWords(prompt);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: textWords + toolWords, text: textWords, reasoning: 0 },
  };
}

function finishReasonOf(reply: ScriptedReply): LanguageModelV4FinishReason {
  if (reply.kind === 'tool-calls') return { unified: 'tool-calls', raw: 'tool_calls' };
  if (reply.kind === 'fail' || reply.failAfterText) return { unified: 'error', raw: 'error' };
  return { unified: 'stop', raw: 'stop' };
}

const randomHex = () => globalThis.crypto.randomUUID().replace(/-/g, '');

interface PlannedCall extends ScriptedToolCall {
  toolCallId: string;
  inputJson: string;
}

const planCalls = (calls: ScriptedToolCall[]): PlannedCall[] =>
  calls.map((call) => ({ ...call, toolCallId: `call_${randomHex().slice(0, 24)}`, inputJson: JSON.stringify(call.input) }));

function scriptedError(reason: string): APICallError {
  return new APICallError({
    message: `Scripted model error: ${reason}`,
    url: 'scripted://model',
    requestBodyValues: {},
    statusCode: 500,
    isRetryable: false,
  });
}

function* streamParts(reply: Exclude<ScriptedReply, { kind: 'fail' }>, prompt: LanguageModelV4Prompt, modelId: string): Generator<LanguageModelV4StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: `scripted-${randomHex()}`, modelId, timestamp: new Date() };
  let textWords = 0;
  let toolWords = 0;
  if (reply.kind === 'text') {
    const id = 'text-1';
    yield { type: 'text-start', id };
    for (const delta of wordTokens(reply.text)) yield { type: 'text-delta', id, delta };
    yield { type: 'text-end', id };
    textWords = countWords(reply.text);
    if (reply.failAfterText) {
      yield { type: 'error', error: scriptedError(`failed after ${textWords} tokens, as asked ("fail after N tokens")`) };
    }
  } else {
    for (const call of planCalls(reply.calls)) {
      yield { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName };
      yield { type: 'tool-input-delta', id: call.toolCallId, delta: call.inputJson };
      yield { type: 'tool-input-end', id: call.toolCallId };
      yield { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.inputJson };
      toolWords += countWords(call.inputJson);
    }
  }
  yield { type: 'finish', finishReason: finishReasonOf(reply), usage: usageOf(prompt, textWords, toolWords) };
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/** Resolves after ms, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A pull stream over the parts: it errors as soon as the signal aborts, even between pulls. */
function toReadableStream(parts: Iterator<LanguageModelV4StreamPart>, delayMs: number, signal: AbortSignal | undefined): ReadableStream<LanguageModelV4StreamPart> {
  let first = true;
  let done = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    done = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        if (done) return;
        detach();
        controller.error(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      if (done) return;
      if (!first && delayMs > 0) {
        try {
          await sleep(delayMs, signal);
        } catch {
          return; // the abort listener has already errored the stream
        }
      }
      first = false;
      if (done) return;
      const next = parts.next();
      if (next.done) {
        detach();
        controller.close();
      } else {
        controller.enqueue(next.value);
      }
    },
    cancel() {
      detach();
    },
  });
}

// ─── The model ──────────────────────────────────────────────────────────────────────────

/** Function tools only: provider tools run at the provider, which this model has none of. */
/** Which attempt at the turn this call is: the runtime says so for a retry (docs/turn-control.md). */
function attemptOf(options: LanguageModelV4CallOptions): number {
  const attempt = (options.providerOptions?.stackbone as { attempt?: unknown } | undefined)?.attempt;
  return typeof attempt === 'number' ? attempt : 1;
}

function offeredTools(options: LanguageModelV4CallOptions): OfferedTools {
  if (options.toolChoice?.type === 'none') return new Map();
  return new Map((options.tools ?? []).flatMap((t) => (t.type === 'function' ? [[t.name, t.inputSchema] as const] : [])));
}

export function createScriptedModel(options: ScriptedModelOptions = {}): LanguageModelV4 {
  const modelId = options.modelId ?? 'scripted';
  const delayMs = Math.max(0, options.delayMs ?? 0);
  const decide = (call: LanguageModelV4CallOptions) => {
    call.abortSignal?.throwIfAborted();
    const reply = decideReply(call.prompt, offeredTools(call), attemptOf(call));
    if (reply.kind === 'fail') throw scriptedError('the user asked for a failure ("fail")');
    return reply;
  };

  return {
    specificationVersion: 'v4',
    provider: SCRIPTED_PROVIDER,
    modelId,
    supportedUrls: {},

    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const reply = decide(call);
      if (reply.kind === 'text' && reply.failAfterText) throw scriptedError('failed mid-reply, as asked ("fail after N tokens")');
      const content: LanguageModelV4Content[] =
        reply.kind === 'text'
          ? [{ type: 'text', text: reply.text }]
          : planCalls(reply.calls).map((c) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: c.inputJson }));
      const textWords = reply.kind === 'text' ? countWords(reply.text) : 0;
      const toolWords = reply.kind === 'tool-calls' ? reply.calls.reduce((n, c) => n + countWords(JSON.stringify(c.input)), 0) : 0;
      return {
        content,
        finishReason: finishReasonOf(reply),
        usage: usageOf(call.prompt, textWords, toolWords),
        response: { id: `scripted-${randomHex()}`, modelId, timestamp: new Date() },
        warnings: [],
      };
    },

    async doStream(call): Promise<LanguageModelV4StreamResult> {
      const reply = decide(call);
      const pace = reply.kind === 'text' && reply.paceMs ? reply.paceMs : delayMs;
      return { stream: toReadableStream(streamParts(reply, call.prompt, modelId), pace, call.abortSignal) };
    },
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

