// What the built-in scripted model (scripted.ts, README "Models") replies to a prompt. It answers
// by fixed rules, so every demo flow of the example agents and every test can be driven from plain
// user text:
//
//   last message is ours         → "Is there anything else I can do?" (never repeat a call)
//   after a tool result          → a sentence per result, in plain words (scripted-results.ts):
//                                  its `summary` ("Sent invoice inv_7 for $19.99 …"), else its
//                                  fields ("Record effect — recorded: k1; attempt: 1."), "I couldn't
//                                  send invoice: …", "I didn't send invoice: you declined it …"
//   fail | simulate model error  → doStream/doGenerate throw an APICallError (not retryable)
//   fail after N tokens          → N text tokens, then an `error` part mid-stream
//   fail once after N tokens     → the same on a turn's first attempt; a retry of the turn
//                                  (providerOptions.stackbone.attempt > 1) replies in full
//                                  ("slowly …" paces either like a slow reply)
//   reply with N tokens          → exactly N text deltas "token1 token2 … tokenN"
//   (or: say N words)
//   slowly reply with N tokens   → the same, one delta every 50 ms (a turn long enough to
//                                  refresh, stop or join while it streams)
//   think about <topic>          → reasoning about it (a reasoning part with a signature of its
//                                  own, as Anthropic's thinking has), then a one-line answer
//   think then <request>         → reasoning, then whatever <request> alone gets (a call, text);
//                                  calls made after thinking carry its signature too
//   which model (are you)?       → "I am the offline scripted model, standing in for <model id>.":
//                                  the model string it was created for, so a chosen model is seen
//                                  to take effect, and never claimed (docs/models.md)
//   show me markdown             → a markdown reply (heading, bold, inline code, a list, a table,
//   (or: markdown demo)            a fenced code block, a link: scripted-markdown.ts), one word
//                                  every 25 ms, so the chat is seen rendering it mid-stream
//   call <tool> {json}           → one call of that tool with those arguments ({} if absent)
//   call a {…}; call b {…}       → one step with both calls (at most 16: more get a reply saying
//                                  so and no call; JSON nested deeper than 64 levels is refused)
//   a phrase                     → the matching tool call(s): the built-in tools' phrases
//                                  (scripted-phrases.ts), then the agent's own (`offline.phrases`,
//                                  server/authoring/offline-phrases.ts); "A and B" / "A; B" give one call
//                                  per clause in the same step when every clause matches
//   anything else                → a short reply quoting the text and listing what to try: the
//                                  agent's phrases, or with none the `call` form with its tools
//   a summary request            → a short summary of the transcript it carries: the user's
//   (models/summary-request.ts)    requests and the tools' outcomes (scripted-summary.ts)
//   over 2,000 characters        → that reply, saying the message is too long to read as a
//                                  request (only a `call` clause is read at any length)
//
// Every decision takes time linear in the message (README, "Models"): a model that a long
// message stalls for seconds blocks the server's event loop, so leases lapse and recovery
// re-runs tools. Patterns run over whitespace-collapsed text or are anchored; see matchClauses.
import type { JSONObject, JSONSchema7, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { MARKDOWN_DEMO, MARKDOWN_DEMO_PACE_MS, MARKDOWN_DEMO_REQUEST } from './scripted-markdown';
import type { OfflinePhrase } from '../authoring/offline-phrases';
import { BUILT_IN_PHRASES } from './scripted-phrases';
import { isSummaryRequest, summariseTranscript } from './scripted-summary';
import { describeFiles, describeToolMessage, lastUserText } from './scripted-prompt';

export interface ScriptedToolCall {
  toolName: string;
  input: JSONObject;
}

/**
 * What the model decided to do with a prompt; the stream and the generate result render it.
 * `reasoning`: what it thinks first, streamed as a reasoning part before the reply.
 */
export type ScriptedReply =
  /** paceMs: a pause before each part, whatever the model's own delay. */
  | { kind: 'text'; text: string; failAfterText?: boolean; paceMs?: number; reasoning?: string }
  | { kind: 'tool-calls'; calls: ScriptedToolCall[]; reasoning?: string }
  | { kind: 'fail' };

/** The function tools on offer, by name, with their input JSON Schemas. */
export type OfferedTools = ReadonlyMap<string, JSONSchema7>;

// ─── Deciding the reply ─────────────────────────────────────────────────────────────────

/** The pause between parts of a "slowly" reply. */
const SLOW_PACE_MS = 50;

/** Replies longer than this are refused: "reply with N tokens" is for tests, not for OOM. */
const MAX_SCRIPTED_TOKENS = 100_000;

/**
 * A message longer than this is not read as a command or a phrase: the reply is the fallback,
 * saying so. Not its first 2,000 characters either: a request cut short is another request
 * ("send invoice inv_7 for 19.99" cut after "for 1" bills 1). README, "Models".
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

/** What a decision reads besides the prompt and the tools. */
export interface DecideOptions {
  /** Which attempt at the turn (a retry is > 1). */
  attempt?: number;
  /** The model string it answers as. */
  modelId?: string;
  /** The agent's own phrases, tried after the built-in ones (server/authoring/offline-phrases.ts). */
  phrases?: readonly OfflinePhrase[];
}

/** The whole decision, pure: a prompt, the tools on offer and the agent's phrases → a reply. */
export function decideReply(prompt: LanguageModelV4Prompt, tools: OfferedTools, options: DecideOptions = {}): ScriptedReply {
  const { attempt = 1, modelId = 'scripted', phrases = [] } = options;
  // System messages may be appended anywhere (context, state); they never decide the reply.
  const last = prompt.findLast((message) => message.role !== 'system');
  if (last?.role === 'tool') return { kind: 'text', text: describeToolMessage(last.content) };
  // Ending on our own message: replaying the user's request could loop a tool call forever.
  if (last?.role === 'assistant') return { kind: 'text', text: 'Is there anything else I can do?' };
  // What reached it of the files a user attached: a test sees they did (docs/models.md, "Attachments").
  if (last?.role === 'user') {
    const files = last.content.flatMap((part) => (part.type === 'file' ? [part] : []));
    if (files.length > 0) return { kind: 'text', text: describeFiles(files, lastUserText(prompt)) };
  }

  const text = lastUserText(prompt);
  if (WHICH_MODEL.test(text)) return { kind: 'text', text: whichModel(modelId) };
  return decideForText(text, tools, phrases, attempt);
}

/** Who answers: this model, offline, in place of the model it was asked as — never that model itself. */
function whichModel(modelId: string): string {
  return modelId === 'scripted' || modelId.startsWith('scripted/')
    ? 'I am the offline scripted model.'
    : `I am the offline scripted model, standing in for ${modelId}.`;
}

/** "which model", "what model are you?": anchored, so linear in the message. */
const WHICH_MODEL = /^\s*(?:which|what)\s+model(?:\s+are\s+you)?\s*\??\s*$/i;

/** What a user's request gets, thinking first when it asks for that. */
function decideForText(text: string, tools: OfferedTools, phrases: readonly OfflinePhrase[], attempt: number): ScriptedReply {
  // The runtime's request to summarise older turns, read at any length (scripted-summary.ts).
  if (isSummaryRequest(text)) return { kind: 'text', text: summariseTranscript(text) };
  // Anchored and over a bounded prefix: linear in the message, as every rule here.
  const think = text.length <= MAX_PHRASE_TEXT_CHARS ? /^\s*think\s+(about|then)\s+([\s\S]+)$/i.exec(text) : null;
  if (think) {
    const rest = think[2]!.trim();
    if (think[1]!.toLowerCase() === 'about') {
      const topic = trimTrailing(rest, /[.!?\s]/);
      return {
        kind: 'text',
        reasoning: `The user wants my thoughts on ${topic}. I'll weigh what matters most and answer in one line.`,
        text: `Here is what I think about ${topic}: it is worth a closer look.`,
      };
    }
    const reply = decideForText(rest, tools, phrases, attempt);
    return reply.kind === 'fail' ? reply : { ...reply, reasoning: `Before I act, let me think: the request is "${rest}". I'll do exactly that.` };
  }
  // A `call` clause is read at any length (its JSON may be long, and reading it is linear).
  // No command or phrase starts with "call", so reading it first changes no other reply.
  const explicit = explicitCalls(text, tools);
  if (explicit) return explicit;
  if (text.length > MAX_PHRASE_TEXT_CHARS) return { kind: 'text', text: fallbackText(text, tools, phrases) };

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

  if (MARKDOWN_DEMO_REQUEST.test(plain)) return { kind: 'text', text: MARKDOWN_DEMO, paceMs: MARKDOWN_DEMO_PACE_MS };

  const calls = matchClauses(text, tools, [...BUILT_IN_PHRASES, ...phrases]);
  if (calls) return { kind: 'tool-calls', calls };

  return { kind: 'text', text: fallbackText(text, tools, phrases) };
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
    return {
      kind: 'text',
      text: `I can make at most ${MAX_CALLS_PER_STEP} tool calls in one step, and this message asks for ${clauses.length}, so I made none. Send at most ${MAX_CALLS_PER_STEP} \`call\` clauses in a message.`,
    };
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
function matchClauses(text: string, tools: OfferedTools, phrases: readonly OfflinePhrase[]): ScriptedToolCall[] | undefined {
  const collapsed = collapseWhitespace(text);
  const pieces = collapsed.split(CLAUSE_SEPARATOR);
  const clauseCount = (pieces.length + 1) / 2;
  if (clauseCount > MAX_CLAUSES) {
    const call = matchPhrase(collapsed, tools, phrases);
    return call && [call];
  }
  const join = (from: number, to: number) => pieces.slice(from * 2, to * 2 - 1).join('');
  const dead = new Set<number>();
  const from = (start: number): ScriptedToolCall[] | undefined => {
    if (start === clauseCount) return [];
    if (dead.has(start)) return undefined;
    for (let end = clauseCount; end > start; end--) {
      const call = matchPhrase(join(start, end), tools, phrases);
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
function matchPhrase(clause: string, tools: OfferedTools, phrases: readonly OfflinePhrase[]): ScriptedToolCall | undefined {
  const normalised = normaliseClause(clause);
  phraseMatchWork.candidates++;
  phraseMatchWork.chars += normalised.length;
  for (const phrase of phrases) {
    const match = tools.has(phrase.call) && phrase.pattern.exec(normalised);
    if (match) return { toolName: phrase.call, input: phrase.input(match, tools.get(phrase.call) ?? {}) };
  }
  return undefined;
}

/** Politeness and end punctuation do not change what is asked. `clause`: whitespace-collapsed. */
function normaliseClause(clause: string): string {
  const unprefixed = clause.trim().replace(/^(?:please|can you|could you|would you) /i, '');
  return trimTrailing(unprefixed, /[ .!?]/).replace(/ ?,? ?please$/i, '');
}

/**
 * What a message that is no request gets: a friendly word on what this model is and the requests
 * it understands with the tools on offer — only those (every example is a phrase of a tool on
 * offer), never the test commands ("reply with N tokens"), which a person has no use for. An
 * agent with no phrases of its own is offered the `call` form with its own tools' names: the
 * built-in tools' examples alone would say nothing of what it is for.
 */
function fallbackText(text: string, tools: OfferedTools, phrases: readonly OfflinePhrase[]): string {
  const offered = (list: readonly OfflinePhrase[]) => list.filter((p) => tools.has(p.call)).map((p) => `"${p.example}"`);
  const own = offered(phrases);
  const builtIn = offered(BUILT_IN_PHRASES);
  const ownTools = [...tools.keys()].filter((name) => !BUILT_IN_PHRASES.some((p) => p.call === name));
  const offer =
    own.length > 0
      ? `Try ${orList([...own, ...builtIn])}.`
      : ownTools.length > 0
        ? `To use a tool, write "call ${ownTools[0]} {…}" with its arguments as JSON (its tools: ${ownTools.join(', ')}).`
        : builtIn.length > 0
          ? `Try ${orList(builtIn)}.`
          : 'This agent has no tools, so there is little more I can do here.';
  const quoted = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  const opening = quoted ? `You said: "${quoted}".` : 'Hello!';
  const tooLong = text.length > MAX_PHRASE_TEXT_CHARS ? ` That is more than the ${MAX_PHRASE_TEXT_CHARS} characters I read as a request.` : '';
  return `${opening}${tooLong} I'm the built-in offline model: I understand a few requests. ${offer}`;
}

/** "a", "a or b", "a, b or c". */
function orList(items: string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
