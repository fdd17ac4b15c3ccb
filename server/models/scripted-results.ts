// How the scripted model (scripted-reply.ts) words a tool's result: a sentence a person reads,
// never JSON. The model does not know what a tool means, so the rule is generic and says only
// what the result says (README, "Models"):
//
//   a result with a string `summary`  → that summary, as the tool wrote it
//   any other object                  → "<Tool name> — invoice ID: inv_7; sent: yes; lines: 2 items."
//   plain text                        → the text itself (a tool that answers in prose, a helper's reply)
//   an error                          → "I couldn't <tool name>: <the reason>."
//   a declined approval               → "I didn't <tool name>: you declined it (“<reason>”)."
//
// The tool name is its identifier in words ("sendInvoice" → "Send invoice"): the prompt carries
// no tool titles. A tool that wants to read well writes a `summary`, which a real model reads too;
// a unit (dollars, seconds) is the tool's to state, since a bare number has none.
import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import { capitalized, identifierWords, readableName } from '../authoring/readable-name';

/** The longest a quoted summary, text or worded result may be; the rest is cut with "…". */
const MAX_TEXT_CHARS = 600;
/** The longest a field's text value may be. */
const MAX_VALUE_CHARS = 120;
/** Fields worded from one object; the rest are counted. */
const MAX_FIELDS = 8;
/** Items worded from one list; the rest are counted. */
const MAX_ITEMS = 5;

/**
 * What the runtime tells the model when a person declined a gated call or a question
 * (server/runtime/decisions/tool-gate.ts, denialResult): the model reads it as the result's text.
 */
const DENIED = /^The user denied this call; it did not run\.(.*)$/s;
const DECLINED_QUESTION = /^The user declined to answer "(.*?)"\.(.*)$/s;
/** The words a refusal starts with ("Not run: the run was stopped …"): the sentence says it already. */
const NOT_RUN = /^Not run: /;

export function describeToolResult({ toolName, output }: LanguageModelV4ToolResultPart): string {
  switch (output.type) {
    case 'text':
      return describeText(toolName, output.value);
    case 'json':
      return describeValue(toolName, output.value);
    case 'error-text':
      return couldNot(toolName, output.value.replace(NOT_RUN, ''));
    case 'error-json':
      return couldNot(toolName, valueWords(output.value, 0));
    case 'execution-denied':
      return notDone(toolName, 'you declined it', output.reason);
    case 'content':
      return describeText(
        toolName,
        output.value.map((item) => (item.type === 'text' ? item.text : item.type === 'file' ? `[${item.mediaType}]` : '')).join(' '),
      );
  }
}

/** A text result: the runtime's words for a declined call, a result it stored as JSON, or the tool's own text. */
function describeText(toolName: string, text: string): string {
  const denied = DENIED.exec(text);
  if (denied) return notDone(toolName, 'you declined it', ...reasonAndDetails(denied[1]!));
  const declined = DECLINED_QUESTION.exec(text);
  if (declined) return notDone(toolName, `you declined to answer “${bounded(declined[1]!, MAX_VALUE_CHARS)}”`, ...reasonAndDetails(declined[2]!));
  const trimmed = text.trim();
  // The runtime stores an object's result as its JSON (tool-set.ts): read it back to word it.
  if (trimmed === 'null') return `${readableName(toolName)} — done.`;
  if (/^[[{]/.test(trimmed)) {
    try {
      return describeValue(toolName, JSON.parse(trimmed));
    } catch {
      // Not JSON after all: quoted as text.
    }
  }
  return trimmed ? sentence(capitalised(bounded(trimmed, MAX_TEXT_CHARS))) : `${readableName(toolName)} — done.`;
}

function describeValue(toolName: string, value: unknown): string {
  const summary = isObject(value) && typeof value.summary === 'string' ? value.summary.trim() : '';
  if (summary) return bounded(summary, MAX_TEXT_CHARS);
  if (value === null || value === undefined || (isObject(value) && Object.keys(value).length === 0)) return `${readableName(toolName)} — done.`;
  return sentence(bounded(`${readableName(toolName)} — ${isObject(value) ? fieldsWords(value, 0, '; ') : valueWords(value, 0)}`, MAX_TEXT_CHARS));
}

function couldNot(toolName: string, reason: string): string {
  return sentence(`I couldn't ${identifierWords(toolName)}: ${bounded(reason.trim() || 'no reason given', MAX_TEXT_CHARS)}`);
}

function notDone(toolName: string, why: string, reason?: string | null, details?: string): string {
  const quoted = reason ? ` (“${bounded(reason, MAX_VALUE_CHARS)}”)` : '';
  return sentence(`I didn't ${identifierWords(toolName)}: ${why}${quoted}${details ? `; ${details}` : ''}`);
}

/** " Reason: not yet Details: {…}" (denialResult's tail) → the reason, and the details in words. */
function reasonAndDetails(tail: string): [string | undefined, string | undefined] {
  const match = /^\s*(?:Reason: (.*?))?\s*(?:Details: (.*))?$/s.exec(tail);
  if (!match) return [tail.trim() || undefined, undefined];
  const [, reason, details] = match;
  if (details === undefined) return [reason, undefined];
  try {
    const parsed: unknown = JSON.parse(details);
    return [reason, isObject(parsed) ? fieldsWords(parsed, 0, ', ') : valueWords(parsed, 0)];
  } catch {
    return [reason, bounded(details, MAX_VALUE_CHARS)];
  }
}

/** "invoice ID: inv_7; sent: yes" — each field's key in words and its value. */
function fieldsWords(object: Record<string, unknown>, depth: number, separator: string): string {
  const entries = Object.entries(object);
  const shown = entries.slice(0, MAX_FIELDS).map(([key, value]) => `${identifierWords(key)}: ${valueWords(value, depth + 1)}`);
  const more = entries.length - shown.length;
  return [...shown, ...(more > 0 ? [`and ${more} more`] : [])].join(separator);
}

function valueWords(value: unknown, depth: number): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.trim() ? bounded(value.trim(), MAX_VALUE_CHARS) : 'empty';
  if (Array.isArray(value)) return listWords(value, depth);
  if (isObject(value)) {
    if (Object.keys(value).length === 0) return 'none';
    // One level of nesting is worded; deeper ones are only counted, so a reply stays short.
    return depth <= 1 ? `(${fieldsWords(value, depth, ', ')})` : count(Object.keys(value).length, 'field');
  }
  return String(value);
}

function listWords(items: unknown[], depth: number): string {
  if (items.length === 0) return 'none';
  if (depth > 1 || items.some((item) => item !== null && typeof item === 'object')) return count(items.length, 'item');
  const shown = items.slice(0, MAX_ITEMS).map((item) => valueWords(item, depth + 1));
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** At most `max` characters, cut at a word where one is near, with "…". */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.7 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Ends with a full stop unless it ends in punctuation already. */
function sentence(text: string): string {
  return capitalized(/[.!?…]$/.test(text) ? text : `${text}.`);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
